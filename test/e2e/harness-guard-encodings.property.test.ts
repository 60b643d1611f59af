// The harness's guard decides on the route a request reaches, not on how its path was spelled: every spelling of
// an API path that reaches an API handler meets the token and cross-origin checks, and every other spelling is
// answered 400/404/405 without a handler running.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { sendRaw } from './harness-support.js';

const TOKEN = 'guard-encodings-token';
const DASHBOARD = JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'greeter' } }] });

/** What a refusal or an unrouted request is answered with: never a handler's own answer. */
const NOT_A_HANDLER = new Set([400, 401, 403, 404, 405]);

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const hex = (byte: number, upper: boolean) => {
  const h = byte.toString(16).padStart(2, '0');
  return `%${upper ? h.toUpperCase() : h}`;
};

/** One way of spelling a path differently, applied at a position chosen by `at` (0..1). */
type Spelling = (path: string, at: number, upper: boolean) => string;

const pick = (path: string, at: number, test: (c: string, i: number) => boolean): number => {
  const places = [...path].map((c, i) => (test(c, i) ? i : -1)).filter((i) => i >= 0);
  return places.length === 0 ? -1 : places[Math.min(places.length - 1, Math.floor(at * places.length))]!;
};
const slashes = (path: string, at: number) => pick(path, at, (c) => c === '/');

const SPELLINGS: Record<string, Spelling> = {
  'percent-encoded unreserved character': (path, at, upper) => {
    const i = pick(path, at, (c) => UNRESERVED.test(c));
    return i < 0 ? path : path.slice(0, i) + hex(path.charCodeAt(i), upper) + path.slice(i + 1);
  },
  'doubled slash': (path, at) => {
    const i = slashes(path, at);
    return path.slice(0, i) + '/' + path.slice(i);
  },
  'dot segment': (path, at) => {
    const i = slashes(path, at);
    return path.slice(0, i) + '/.' + path.slice(i);
  },
  'dot-dot segment': (path, at) => {
    const i = slashes(path, at);
    return path.slice(0, i) + '/x/..' + path.slice(i);
  },
  'encoded dot segment': (path, at, upper) => {
    const i = slashes(path, at);
    return path.slice(0, i) + `/${hex(0x2e, upper)}` + path.slice(i);
  },
  'trailing dot': (path) => `${path}.`,
  'trailing slash': (path) => `${path}/`,
  'semicolon parameter': (path, at) => {
    const i = slashes(path, at);
    const end = path.indexOf('/', i + 1);
    const cut = end < 0 ? path.length : end;
    return `${path.slice(0, cut)};jsessionid=1${path.slice(cut)}`;
  },
  backslash: (path, at) => {
    const i = slashes(path, at);
    return `${path.slice(0, i)}\\${path.slice(i + 1)}`;
  },
  'encoded slash': (path, at, upper) => {
    const i = slashes(path, at);
    return path.slice(0, i) + hex(0x2f, upper) + path.slice(i + 1);
  },
  'encoded backslash': (path, at, upper) => {
    const i = slashes(path, at);
    return path.slice(0, i) + hex(0x5c, upper) + path.slice(i + 1);
  },
  'overlong UTF-8 letter': (path, at, upper) => {
    const i = pick(path, at, (c) => /[a-z]/.test(c));
    if (i < 0) return path;
    const code = path.charCodeAt(i);
    return path.slice(0, i) + hex(0xc0 | (code >> 6), upper) + hex(0x80 | (code & 0x3f), upper) + path.slice(i + 1);
  },
  'overlong UTF-8 slash': (path, at, upper) => {
    const i = slashes(path, at);
    return path.slice(0, i) + hex(0xc0, upper) + hex(0xaf, upper) + path.slice(i + 1);
  },
  'upper-case letter': (path, at) => {
    const i = pick(path, at, (c) => /[a-z]/.test(c));
    return i < 0 ? path : path.slice(0, i) + path[i]!.toUpperCase() + path.slice(i + 1);
  },
};

describe('harness guard: every spelling of an API path', () => {
  let running: RunningHarness;
  let id: string;
  let calls = 0;
  let requests: { method: string; path: string; body?: string }[];

  before(async () => {
    running = await startHarness({
      port: 0,
      token: TOKEN,
      functions: { functions: { greeter: { handler: () => (calls++, '<p>hi</p>') } } },
    });
    const created = await sendRaw(
      running.url,
      'POST',
      '/api/dashboards',
      { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      JSON.stringify(DASHBOARD),
    );
    assert.equal(created.status, 201);
    id = (created.body as { id: string }).id;
    requests = [
      { method: 'GET', path: '/api/dashboards' },
      { method: 'GET', path: `/api/dashboards/${id}` },
      { method: 'GET', path: `/api/dashboards/${id}/source` },
      { method: 'GET', path: `/api/dashboards/${id}/widgets/0` },
      { method: 'GET', path: `/api/dashboards/${id}/widgets/widget-0/describe` },
      { method: 'POST', path: `/api/dashboards/${id}/refresh`, body: '{}' },
      { method: 'POST', path: '/api/dashboards', body: JSON.stringify(DASHBOARD) },
      { method: 'GET', path: '/api/functions' },
    ];
  });
  after(() => running.close());

  const count = async () => {
    const res = await running.app.inject({ method: 'GET', url: '/api/dashboards', headers: { authorization: `Bearer ${TOKEN}` } });
    return res.json<unknown[]>().length;
  };

  it('the plain paths are refused without the token, and answered with it (the checks below are not vacuous)', async () => {
    for (const r of requests) {
      const headers = { 'content-type': 'application/json' };
      const refused = await running.app.inject({ method: r.method, url: r.path, headers, body: r.body });
      assert.equal(refused.statusCode, 401, `${r.method} ${r.path}`);
      const answered = await running.app.inject({
        method: r.method,
        url: r.path,
        headers: { ...headers, authorization: `Bearer ${TOKEN}` },
        body: r.body,
      });
      assert.ok(answered.statusCode < 300, `${r.method} ${r.path} with the token: ${answered.statusCode}`);
    }
  });

  it('no spelling reaches a handler without the token, or from another site with it', async () => {
    const names = Object.keys(SPELLINGS);
    const before = { calls, dashboards: await count() };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: requests.length - 1 }),
        fc.array(fc.record({ spelling: fc.constantFrom(...names), at: fc.double({ min: 0, max: 1, noNaN: true }), upper: fc.boolean() }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.boolean(),
        async (which, steps, crossSite) => {
          const r = requests[which]!;
          let path = r.path;
          for (const step of steps) path = SPELLINGS[step.spelling]!(path, step.at, step.upper);
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (crossSite)
            Object.assign(headers, { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
          const res = await running.app.inject({ method: r.method, url: path, headers, body: r.body });
          assert.ok(
            NOT_A_HANDLER.has(res.statusCode),
            `${r.method} ${JSON.stringify(path)} (${steps.map((s) => s.spelling).join(', ')}${crossSite ? ', cross-site with the token' : ''}) was answered ${res.statusCode}: ${res.body.slice(0, 200)}`,
          );
        },
      ),
      { numRuns: 400 },
    );
    assert.deepEqual({ calls, dashboards: await count() }, before, 'no function ran and no dashboard was made');
  });

  it('over a real socket too: the spellings of the original report are refused', async () => {
    const before = { calls, dashboards: await count() };
    const cases: [string, string, Record<string, string>, string?][] = [
      ['GET', '/%61pi/dashboards', {}],
      ['GET', '/%41pi/dashboards', {}],
      ['GET', '//api/dashboards', {}],
      ['GET', '/./api/dashboards', {}],
      [
        'GET',
        `/%61pi/dashboards/${id}/widgets/1`,
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', authorization: `Bearer ${TOKEN}` },
      ],
      ['GET', `/%61pi/dashboards/${id}/widgets/0`, {}],
      ['POST', '/%61pi/dashboards', { 'content-type': 'application/json' }, JSON.stringify(DASHBOARD)],
      ['POST', '/ap%69/dashboards', { 'content-type': 'application/json' }, JSON.stringify(DASHBOARD)],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await sendRaw(running.url, method, path, headers, body);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      assert.ok(NOT_A_HANDLER.has(res.status), `${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      assert.doesNotMatch(text, /"id"|<p>hi<\/p>/, `${method} ${path} leaked a handler's answer`);
    }
    assert.deepEqual({ calls, dashboards: await count() }, before);
  });
});
