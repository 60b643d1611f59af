// GET /api/dashboards/{id}/widgets/{wid}/image over a real socket: the PNG, its query parameters, its problems
// (each documented in the OpenAPI document, as every response of these tests is checked against it), the typed
// client, and a harness without a browser — whose image endpoint says what to install while every other
// endpoint works. Chromium starts on the first image and ends with the harness.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { HarnessApiError, HarnessClient, startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason } from '../support/chromium.js';
import { call, checkingFetch, testDashboard, testFunctions } from './harness-support.js';

const skip = chromiumSkipReason();

function size(bytes: Uint8Array): [number, number] {
  const png = PNG.sync.read(Buffer.from(bytes));
  return [png.width, png.height];
}

async function image(base: string, path: string): Promise<{ status: number; type: string | null; bytes: Uint8Array; problem: any }> {
  const res = await fetch(`${base}${path}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get('content-type');
  const problem = type?.includes('json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : null;
  return { status: res.status, type, bytes, problem };
}

describe('the image endpoint', { skip, timeout: 180_000 }, () => {
  let running: RunningHarness;
  let base: string;
  let id: string;

  before(async () => {
    running = await startHarness({ functions: testFunctions, port: 0, web: false });
    base = running.url;
    const created = await call(base, 'POST', '/api/dashboards?name=ops', JSON.stringify(testDashboard));
    id = created.json().id;
  });
  after(() => running.close());

  it('starts Chromium on the first image, answers a PNG of the widget at its size, and ends Chromium with the harness', async () => {
    assert.equal(running.images.browser, null, 'no browser before the first image');
    const res = await fetch(`${base}/api/dashboards/${id}/widgets/0/image`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('content-disposition'), 'inline; filename="ops-widget-0-light.png"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(size(new Uint8Array(await res.arrayBuffer())), [588, 369], 'a 6 × 6 widget at 2392 px');
    assert.ok(running.images.browser, 'the browser runs');
    const other = await startHarness({ functions: testFunctions, port: 0, web: false });
    const { id: otherId } = (await call(other.url, 'POST', '/api/dashboards', JSON.stringify(testDashboard))).json();
    assert.equal((await image(other.url, `/api/dashboards/${otherId}/widgets/0/image`)).status, 200);
    await other.close();
    assert.equal(other.images.browser, null, 'closed with its harness');
  });

  it('takes theme, width, height and scale; the state sets what the function is told', async () => {
    const light = await image(base, `/api/dashboards/${id}/widgets/0/image`);
    const frame = await image(base, `/api/dashboards/${id}/widgets/0/image?theme=dark`);
    assert.notDeepEqual(frame.bytes, light.bytes);
    await call(base, 'PUT', `/api/dashboards/${id}/state`, { theme: 'dark', dashboardWidth: 1280 });
    const dark = await image(base, `/api/dashboards/${id}/widgets/widget-0/image?scale=2`);
    assert.deepEqual(size(dark.bytes), [620, 738], 'a 6 × 6 widget at 1280 px, twice');
    const sized = await image(base, `/api/dashboards/${id}/widgets/0/image?width=300&height=200&scale=3`);
    assert.deepEqual(size(sized.bytes), [900, 600]);
    assert.equal(sized.type, 'image/png');
    const again = await image(base, `/api/dashboards/${id}/widgets/0/image?width=300&height=200&scale=3`);
    assert.deepEqual(again.bytes, sized.bytes, 'the same picture twice');
    await call(base, 'PUT', `/api/dashboards/${id}/state`, {});
  });

  it('answers problems, each documented: bad queries, unknown widgets, other widget types, sizes past the bounds', async () => {
    const cases: Array<[string, number, Record<string, unknown>]> = [
      ['widgets/0/image?scale=two', 400, { field: 'scale' }],
      ['widgets/0/image?width=1&width=2', 400, { field: 'width' }],
      ['widgets/0/image?theme=blue', 400, { field: 'theme' }],
      ['widgets/9/image', 404, { target: 'widget' }],
      ['widgets/1/image', 422, { field: 'type' }],
      ['widgets/3/image', 422, { field: 'type' }],
      ['widgets/0/image?width=5000', 422, { field: 'width', code: 'TRELLIS_IMAGE_TOO_LARGE' }],
      ['widgets/0/image?scale=4', 422, { field: 'scale', code: 'TRELLIS_IMAGE_TOO_LARGE' }],
      ['widgets/0/image?width=4096&height=4096&scale=2', 422, { field: 'scale', code: 'TRELLIS_IMAGE_TOO_LARGE' }],
    ];
    for (const [path, status, members] of cases) {
      const res = await call(base, 'GET', `/api/dashboards/${id}/${path}`);
      assert.equal(res.status, status, `${path}: ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      for (const [key, value] of Object.entries(members)) assert.equal(res.json()[key], value, `${path}: ${key}`);
    }
    assert.equal((await call(base, 'GET', '/api/dashboards/nope/widgets/0/image')).status, 404);
    // A failing function is drawn, as the page shows it.
    assert.equal((await image(base, `/api/dashboards/${id}/widgets/4/image`)).status, 200);
  });

  it('is in the OpenAPI document with its query, its PNG and its problem codes', async () => {
    const doc = (await call(base, 'GET', '/api/openapi.json')).json();
    const op = doc.paths['/api/dashboards/{id}/widgets/{wid}/image'].get;
    assert.equal(op.operationId, 'widgetImage');
    assert.deepEqual(
      op.parameters
        .filter((p: { in: string }) => p.in === 'query')
        .map((p: { name: string }) => p.name)
        .sort(),
      ['height', 'scale', 'theme', 'width'],
    );
    assert.deepEqual(Object.keys(op.responses['200'].content), ['image/png']);
    for (const status of ['400', '404', '422', '429', '503']) assert.ok(op.responses[status], status);
    for (const code of ['TRELLIS_IMAGE_BROWSER_UNAVAILABLE', 'TRELLIS_IMAGE_TOO_LARGE', 'TRELLIS_IMAGE_TIMEOUT', 'TRELLIS_IMAGE_BUSY']) {
      assert.ok(doc.components.schemas.Problem.properties.code.enum.includes(code), code);
    }
  });

  it('HarnessClient.widgetImage answers the PNG', async () => {
    const client = new HarnessClient(base, { fetch: checkingFetch });
    const png = await client.widgetImage(id, 'widget-0', { scale: 2, theme: 'dark' });
    assert.ok(png instanceof Uint8Array);
    assert.deepEqual(size(png), [1176, 738]);
  });
});

describe('a harness without a browser', { timeout: 60_000 }, () => {
  let running: RunningHarness;
  let base: string;
  let id: string;

  before(async () => {
    running = await startHarness({ functions: testFunctions, port: 0, images: { chromium: '/nonexistent/chromium' } });
    base = running.url;
    id = (await call(base, 'POST', '/api/dashboards', JSON.stringify(testDashboard))).json().id;
  });
  after(() => running.close());

  it('answers the image with a 503 saying what to install, and every other endpoint as usual', async () => {
    const res = await call(base, 'GET', `/api/dashboards/${id}/widgets/0/image`);
    assert.equal(res.status, 503);
    assert.equal(res.json().code, 'TRELLIS_IMAGE_BROWSER_UNAVAILABLE');
    assert.match(res.json().detail, /the chromium option names \/nonexistent\/chromium, which is not a program on this machine/);
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).status, 200);
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/0/actions`)).status, 200);
    assert.equal((await call(base, 'POST', `/api/dashboards/${id}/refresh`, {})).status, 200);
    assert.equal((await call(base, 'GET', '/api/functions')).status, 200);
    assert.equal((await fetch(`${base}/`)).status, 200, 'the page');
    const client = new HarnessClient(base);
    await assert.rejects(
      client.widgetImage(id, 0),
      (error: unknown) =>
        error instanceof HarnessApiError && error.status === 503 && error.problem.code === 'TRELLIS_IMAGE_BROWSER_UNAVAILABLE',
    );
    assert.equal(running.images.browser, null);
  });
});
