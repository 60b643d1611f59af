// The web page's routes on the harness app, and the page's modules checked in Node: grid placement
// (property-based) and the inspector (rendered in jsdom), which shows exactly the event a function received.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { createHarnessApp } from '../../packages/harness/src/harness/index.js';
import { WEB_ASSETS } from '../../packages/harness/src/harness/web/index.js';
import type { App } from '../../packages/trellis/src/index.js';

const ASSETS = fileURLToPath(new URL('../../packages/harness/src/harness/web/assets/', import.meta.url));
// The page's modules are plain browser JavaScript without type declarations.
const pageModule = (name: string): Promise<any> => import(pathToFileURL(`${ASSETS}${name}`).href);

const post = (app: App, url: string, body: unknown) =>
  app.inject({ method: 'POST', url, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const put = (app: App, url: string, body: unknown) =>
  app.inject({ method: 'PUT', url, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('web page routes', () => {
  it('GET / serves the page and every module it imports, with types; other paths under /web are 404', async () => {
    const { app, harness } = createHarnessApp({ functions: { functions: {} } });
    try {
      const root = await app.inject({ url: '/' });
      assert.equal(root.statusCode, 200);
      assert.match(String(root.headers['content-type']), /^text\/html/);
      assert.match(String(root.headers['content-security-policy']), /object-src 'none'/);
      assert.match(root.body, /<script type="module" src="\/web\/app\.js"><\/script>/);
      const seen = new Set<string>();
      const queue = ['app.js', 'app.css', 'widget.css'];
      while (queue.length) {
        const file = queue.shift()!;
        if (seen.has(file)) continue;
        seen.add(file);
        const res = await app.inject({ url: `/web/${file}` });
        assert.equal(res.statusCode, 200, file);
        assert.match(String(res.headers['content-type']), file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/, file);
        for (const m of res.body.matchAll(/from '\.\/([\w-]+\.js)'/g)) queue.push(m[1]!);
      }
      assert.deepEqual([...seen].sort(), WEB_ASSETS.filter((f) => f !== 'index.html').sort());
      assert.equal((await app.inject({ url: '/web/index.ts' })).statusCode, 404);
      assert.equal((await app.inject({ url: '/web/../index.ts' })).statusCode, 404);
    } finally {
      await harness.close();
    }
  });
});

describe('grid placement', () => {
  const widgetArb = fc.record(
    {
      x: fc.integer({ min: 0, max: 23 }),
      y: fc.integer({ min: 0, max: 30 }),
      width: fc.integer({ min: 1, max: 24 }),
      height: fc.integer({ min: 1, max: 12 }),
    },
    { requiredKeys: [] },
  );

  it('keeps written positions and puts every other widget where it overlaps nothing, inside 24 columns', async () => {
    const { placeWidgets } = await pageModule('layout.js');
    fc.assert(
      fc.property(fc.array(widgetArb, { maxLength: 25 }), (widgets) => {
        const placed: { x: number; y: number; width: number; height: number }[] = placeWidgets(widgets);
        assert.equal(placed.length, widgets.length);
        const overlap = (a: (typeof placed)[number], b: (typeof placed)[number]) =>
          a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        placed.forEach((p, i) => {
          const w = widgets[i]!;
          assert.ok(p.x >= 0 && p.x + p.width <= 24 && p.y >= 0 && p.height >= 1, JSON.stringify(p));
          if (w.x !== undefined && w.y !== undefined) {
            assert.deepEqual([p.x, p.y], [w.x, w.y]);
          } else {
            assert.equal(p.width, w.width ?? 6);
            placed.forEach((q, j) => assert.ok(i === j || !overlap(p, q), `widget ${i} overlaps widget ${j}`));
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('places widgets without positions left to right, then below', async () => {
    const { placeWidgets } = await pageModule('layout.js');
    assert.deepEqual(placeWidgets([{}, {}, {}, {}, { width: 24, height: 2 }]), [
      { x: 0, y: 0, width: 6, height: 6 },
      { x: 6, y: 0, width: 6, height: 6 },
      { x: 12, y: 0, width: 6, height: 6 },
      { x: 18, y: 0, width: 6, height: 6 },
      { x: 0, y: 6, width: 24, height: 2 },
    ]);
  });
});

describe('the inspector', () => {
  it('shows exactly the event the function received, its duration and logs, for any state the API accepts', async () => {
    const dom = new JSDOM('<!doctype html><div id="inspector-body"></div>');
    const globals = globalThis as { document?: unknown };
    const saved = globals.document;
    globals.document = dom.window.document;
    const { renderInspector } = await pageModule('inspector.js');
    const body = dom.window.document.getElementById('inspector-body')!;
    const now = Date.UTC(2024, 2, 31, 12, 30, 0);
    const received: unknown[] = [];
    const { app, harness } = createHarnessApp({
      clock: () => now,
      functions: {
        functions: {
          probe: {
            handler: (event: any) => {
              received.push(event);
              console.log('probe theme', event.widgetContext.theme);
              return '<p>probe</p>';
            },
          },
        },
      },
    });
    try {
      const widget = {
        type: 'custom',
        x: 0,
        y: 0,
        width: 7,
        height: 5,
        properties: { endpoint: 'probe', title: 'Probe', params: { a: 1, nested: { b: [true] } } },
      };
      const created = await post(app, '/api/dashboards?name=ops', JSON.stringify({ widgets: [widget] }));
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json<{ id: string }>().id;
      const stateArb = fc.record(
        {
          timeRange: fc.oneof(
            fc.constantFrom('-PT3H', '-PT15M', '-P1D', '-P1W', '-P1M', '-P1Y2M', '-P2DT4H30M').map((relative) => ({ relative })),
            fc
              .record({ start: fc.integer({ min: 1e12, max: 1.6e12 }), span: fc.integer({ min: 1, max: 1e9 }) })
              .map(({ start, span }) => ({ start, end: start + span })),
          ),
          theme: fc.constantFrom('light', 'dark'),
          period: fc.constantFrom('auto', 60, 3600),
          timezone: fc.constantFrom('UTC', '+05:30', '-08:00', 'Europe/Berlin', 'America/New_York'),
          locale: fc.constantFrom('en', 'de-DE'),
          dashboardWidth: fc.constantFrom(2392, 1280, 1921),
          widgetSizes: fc.constantFrom({}, { 0: { width: 400, height: 250 } }, { 'widget-0': { height: 100 } }),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(stateArb, async (input) => {
          const res = await put(app, `/api/dashboards/${id}/state`, input);
          assert.equal(res.statusCode, 200, res.body);
          const state = res.json<{ state: unknown }>().state;
          assert.equal((await post(app, `/api/dashboards/${id}/refresh`, { mode: 'manual' })).statusCode, 200);
          const read = await app.inject({ url: `/api/dashboards/${id}/widgets/0` });
          assert.equal(read.statusCode, 200);
          const result = read.json<{ invocation: { durationMs: number } }>();
          const place = { x: 0, y: 0, width: 7, height: 5 };
          renderInspector(
            { widgetId: 'widget-0', type: 'custom', title: 'Probe', endpoint: 'probe', place, result, actions: [], log: [] },
            { onDescribe: () => {}, size: () => ({ state }) },
          );
          const shown = JSON.parse(body.querySelector('#insp-event pre.json')!.textContent);
          assert.deepEqual(shown, received.at(-1));
          const { width, height } = (shown as { widgetContext: { width: number; height: number } }).widgetContext;
          assert.equal(body.querySelector('#insp-size-told')!.textContent, `${width} × ${height}`);
          assert.equal((shown as { widgetContext: { theme: unknown } }).widgetContext.theme, (state as { theme: unknown }).theme);
          assert.match(body.querySelector('.stats')!.textContent, new RegExp(`Function\\s*${result.invocation.durationMs.toFixed(1)} ms`));
          assert.match(
            body.querySelector('#insp-logs')!.textContent,
            new RegExp(`INFO\\s*probe theme ${(state as { theme: string }).theme}`),
          );
        }),
        { numRuns: 60 },
      );
    } finally {
      globals.document = saved;
      await harness.close();
    }
  });
});
