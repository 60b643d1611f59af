// The harness's public HTTP API as the page uses it. Every call resolves to { ok, status, body, ms }; problem
// details come back as the body of a failed call, never as a thrown error.
/* global fetch, performance, location, history, sessionStorage */

// A harness that listens beyond loopback needs its token. The URL it prints carries it in the fragment (never
// sent to a server, nor in a Referer); the page keeps it for this tab and takes it out of the address bar.
function takeToken() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match) {
    const token = decodeURIComponent(match[1]);
    try {
      sessionStorage.setItem('trellis-harness-token', token);
    } catch {
      // storage refused (private mode): the token still serves this page load
    }
    history.replaceState(null, '', location.pathname + location.search);
    return token;
  }
  try {
    return sessionStorage.getItem('trellis-harness-token');
  } catch {
    return null;
  }
}

const token = takeToken();

async function call(method, path, body) {
  const init = { method, headers: { accept: 'application/json' } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const started = performance.now();
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    return { ok: false, status: 0, body: { title: 'The harness did not answer', detail: String(e) }, ms: performance.now() - started };
  }
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { ok: res.ok, status: res.status, body: parsed, ms };
}

const d = (id) => `/api/dashboards/${encodeURIComponent(id)}`;

/** A PNG of a widget: resolves to { ok, status, blob, filename } or, for a problem, { ok: false, status, body }. */
async function image(id, wid, scale) {
  const headers = { accept: 'image/png, application/problem+json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const path = `${d(id)}/widgets/${encodeURIComponent(wid)}/image?scale=${scale}`;
  let res;
  try {
    res = await fetch(path, { headers });
  } catch (e) {
    return { ok: false, status: 0, body: { title: 'The harness did not answer', detail: String(e) } };
  }
  if (!res.ok) {
    const text = await res.text();
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: shown as text
    }
    return { ok: false, status: res.status, body };
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${wid}.png`;
  return { ok: true, status: res.status, blob: await res.blob(), filename };
}

export const api = {
  listDashboards: () => call('GET', '/api/dashboards'),
  /** The dashboard JSON is sent as a JSON string holding its text, as the API asks. */
  createDashboard: (text, name) => call('POST', `/api/dashboards?name=${encodeURIComponent(name || 'dashboard')}`, text),
  getDashboard: (id) => call('GET', d(id)),
  getDashboardSource: (id) => call('GET', `${d(id)}/source`),
  getState: (id) => call('GET', `${d(id)}/state`),
  putState: (id, state) => call('PUT', `${d(id)}/state`, state),
  readWidget: (id, wid) => call('GET', `${d(id)}/widgets/${encodeURIComponent(wid)}`),
  listActions: (id, wid) => call('GET', `${d(id)}/widgets/${encodeURIComponent(wid)}/actions`),
  describeWidget: (id, wid) => call('GET', `${d(id)}/widgets/${encodeURIComponent(wid)}/describe`),
  runAction: (id, wid, index, body) => call('POST', `${d(id)}/widgets/${encodeURIComponent(wid)}/actions/${index}`, body),
  refresh: (id, mode) => call('POST', `${d(id)}/refresh`, { mode }),
  listFunctions: () => call('GET', '/api/functions'),
  /** Watch mode: the latest change number (no `after`), or the changes after `after`, waiting for one. */
  changes: (after) => call('GET', after === undefined ? '/api/changes' : `/api/changes?after=${after}`),
  /** The widget drawn as a PNG by the harness (GET …/image). */
  widgetImage: image,
};

/** One line for a failed call: the problem's title and detail, or the status. */
export function problemText(res) {
  const b = res.body;
  if (b && typeof b === 'object') {
    const parts = [b.title, b.detail].filter(Boolean);
    if (Array.isArray(b.validationMessages)) {
      parts.push(...b.validationMessages.map((m) => `${m.dataPath || '/'}: ${m.message}`));
    }
    if (parts.length) return `${res.status ? `${res.status} ` : ''}${parts.join(' — ')}`;
  }
  return `${res.status} ${typeof b === 'string' ? b.slice(0, 300) : ''}`.trim();
}
