// What a widget returns is untrusted HTML, and drawing it must not run it or let it reach anything: no script
// runs (even one the stripping missed), no file: URL is read, neither the harness's own API nor any loopback or
// private address is asked for anything (with remote images allowed too), and a size or time past the bounds is
// refused. Without chromium the tests skip with one line (and fail under CI=true).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { createInterpreter, type FunctionsConfig, type Interpreter } from '../../packages/harness/src/dashboard/index.js';
import { createHarnessApp, WidgetImages, type HarnessApp } from '../../packages/harness/src/harness/index.js';
import { ImageError } from '../../packages/harness/src/snapshot/index.js';
import { Renderer } from '../../packages/harness/src/snapshot/renderer.js';
import { widgetDocument } from '../../packages/harness/src/snapshot/widget-document.js';
import { chromiumSkipReason } from '../support/chromium.js';

const skip = chromiumSkipReason();

/** A 40 × 40 PNG, all red. */
function redPng(): Buffer {
  const png = new PNG({ width: 40, height: 40 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([255, 0, 0, 255], i);
  return PNG.sync.write(png);
}

/** Pixels of a drawing that are pure enough red to have come from a probe. */
function redPixels(image: Uint8Array): number {
  const { data } = PNG.sync.read(Buffer.from(image));
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60) n++;
  return n;
}

const RED_DATA_URL = `data:image/png;base64,${redPng().toString('base64')}`;

describe('drawing untrusted widget HTML', { skip, timeout: 240_000 }, () => {
  let dir: string;
  let probe: Server;
  let probeUrl: string;
  const probeHits: string[] = [];
  let harness: HarnessApp;
  let harnessUrl: string;
  const harnessSaw: string[] = [];
  let html = '';
  let interpreter: Interpreter;
  let images: WidgetImages;

  const functions: FunctionsConfig = { functions: { untrusted: { handler: async () => html } } };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-image-safety-'));
    writeFileSync(join(dir, 'red.png'), redPng());
    // A loopback server serving a red image to whoever asks: nothing may ask.
    probe = createServer((req, res) => {
      probeHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' }).end(redPng());
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
    // The harness serving the widget, with a filter that sees every request it gets.
    harness = createHarnessApp({ functions, web: false });
    harness.app.filter({
      name: 'seen',
      order: 1,
      observesDecided: true,
      run: (ctx, next) => {
        harnessSaw.push(ctx.request.url);
        return next();
      },
    });
    harnessUrl = (await harness.app.listen({ port: 0, host: '127.0.0.1' })).url;
    interpreter = createInterpreter({ functions });
    images = new WidgetImages();
  });

  after(async () => {
    await images?.close();
    await interpreter?.close();
    await harness?.app.close();
    await harness?.images.close();
    await harness?.harness.close();
    probe?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function draw(widgetHtml: string, using = images) {
    html = widgetHtml;
    const dashboard = await interpreter.load({ widgets: [{ type: 'custom', width: 6, height: 4, properties: { endpoint: 'untrusted' } }] });
    return using.widget(dashboard, 0);
  }

  it('the probes are red: a data: URL image is drawn', async () => {
    const image = await draw(`<img src="${RED_DATA_URL}" width="40" height="40">`);
    assert.ok(redPixels(image.png) >= 1600, 'the data: image is drawn');
  });

  it('runs no script: neither one the stripping removes nor one in a document drawn as it is', async () => {
    const script = `<p>text</p><script>document.documentElement.style.background = 'rgb(255,0,0)'; document.body.innerHTML = '<h1>ran</h1>'</script>
<img src="x" onerror="document.body.style.background = 'rgb(255,0,0)'">`;
    const image = await draw(script);
    assert.equal(redPixels(image.png), 0);
    // Past the stripping: the browser itself runs no script in a widget image.
    const renderer = new Renderer();
    try {
      const raw = `<!doctype html><html><body style="background:#fff"><p>text</p><script>document.body.style.background = 'rgb(255,0,0)'</script>
<img src="x" onerror="document.body.style.background = 'rgb(255,0,0)'"></body></html>`;
      const drawn = await renderer.draw({ document: raw, width: 200, height: 100, scale: 1, allowRemoteImages: false, timeoutMs: 10_000 });
      assert.equal(redPixels(drawn.png), 0, 'the script did not run');
      const stripped = widgetDocument(script, { theme: 'light' });
      assert.doesNotMatch(stripped, /<script|onerror/);
    } finally {
      await renderer.close();
    }
  });

  it('reads no file: URL', async () => {
    const image = await draw(
      `<img src="file://${join(dir, 'red.png')}" width="40" height="40"><div style="width:40px;height:40px;background:url(file://${join(dir, 'red.png')})"></div>`,
    );
    assert.equal(redPixels(image.png), 0);
  });

  it("asks the harness's own API for nothing, nor any loopback or private address, with or without remote images", async () => {
    const harnessPort = new URL(harnessUrl).port;
    const targets = [
      `${harnessUrl}/api/dashboards`,
      `http://localhost:${harnessPort}/api/functions`,
      `${probeUrl}/img.png`,
      `http://[::1]:${new URL(probeUrl).port}/v6.png`,
      'http://10.0.0.1/private.png',
      'http://192.168.1.1/router.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/cgnat.png',
    ];
    const widget = `<p>probes</p>${targets.map((t) => `<img src="${t}" width="40" height="40">`).join('')}
<div style="width:40px;height:40px;background:url(${probeUrl}/background.png)"></div>
<style>@import url(${probeUrl}/import.css);</style><link rel="stylesheet" href="${probeUrl}/link.css">`;
    const remote = new WidgetImages({ allowRemoteImages: true });
    try {
      for (const using of [images, remote]) {
        const image = await draw(widget, using);
        assert.equal(redPixels(image.png), 0);
        assert.deepEqual(image.remote, []);
        const refused = image.blocked.map((b) => b.url);
        for (const target of targets.filter((t) => !t.includes('localhost'))) {
          assert.ok(refused.includes(new URL(target).href), `${target} was refused: ${refused.join(', ')}`);
        }
        if (using === remote) {
          for (const b of image.blocked) assert.match(b.reason, /not a public address/, b.url);
        }
      }
      // Through the harness's own image endpoint too: its only request is the image's.
      const { id } = (await (
        await fetch(`${harnessUrl}/api/dashboards`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'untrusted' } }] })),
        })
      ).json()) as { id: string };
      harnessSaw.length = 0;
      const res = await fetch(`${harnessUrl}/api/dashboards/${id}/widgets/0/image`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.equal(redPixels(new Uint8Array(await res.arrayBuffer())), 0);
      assert.deepEqual(harnessSaw, [`/api/dashboards/${id}/widgets/0/image`], 'the harness saw the image request and nothing else');
    } finally {
      await remote.close();
    }
    assert.deepEqual(probeHits, [], 'the loopback server got no request');
  });

  it('refuses a size or scale past the bounds before drawing, and a drawing past its time', async () => {
    html = '<p>big</p>';
    const dashboard = await interpreter.load({
      widgets: [{ type: 'custom', width: 24, height: 6, properties: { endpoint: 'untrusted' } }],
    });
    const tooLarge = (field: string, detail: RegExp) => (error: unknown) =>
      error instanceof ImageError &&
      error.code === 'TRELLIS_IMAGE_TOO_LARGE' &&
      error.status === 422 &&
      error.field === field &&
      detail.test(error.message);
    await assert.rejects(
      images.widget(dashboard, 0, { width: 100_000 }),
      tooLarge('width', /"width" is 100000 px; a widget image is at most 4096 px wide/),
    );
    await assert.rejects(images.widget(dashboard, 0, { height: 5000 }), tooLarge('height', /at most 4096 px high/));
    await assert.rejects(images.widget(dashboard, 0, { scale: 4 }), tooLarge('scale', /"scale" is at most 3/));
    await assert.rejects(images.widget(dashboard, 0, { width: 4096, height: 4096, scale: 2 }), tooLarge('scale', /device pixels/));
    await dashboard.putState({ dashboardWidth: 100_000 });
    await assert.rejects(images.widget(dashboard, 0), tooLarge('width', /the widget's width at the dashboard's width is 99990 px/));
    const hurried = new WidgetImages({ timeoutMs: 1 });
    try {
      await dashboard.putState({});
      await assert.rejects(
        hurried.widget(dashboard, 0),
        (error: unknown) => error instanceof ImageError && error.code === 'TRELLIS_IMAGE_TIMEOUT' && /longer than 1 ms/.test(error.message),
      );
    } finally {
      await hurried.close();
    }
  });
});
