import { request } from 'node:http';
// Shared by the harness tests: a harness over a real socket with in-process widget functions, and a fetch
// wrapper that checks every response against the OpenAPI document's response schemas.
import assert from 'node:assert/strict';
import { openApiDocument, startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import type { FunctionsConfig } from '../../packages/harness/src/dashboard/index.js';

type Schema = Record<string, any>;
const doc = openApiDocument() as Schema;

function resolveRef(schema: Schema): Schema {
  let s = schema;
  while (typeof s.$ref === 'string') {
    s = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Schema, key: string) => node[key], doc);
  }
  return s;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The JSON Schema keywords the document uses; returns the problems found (empty when valid). */
export function schemaProblems(schema: Schema, value: unknown, at = ''): string[] {
  const s = resolveRef(schema);
  const out: string[] = [];
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number')))
      return [`${at || '/'}: expected ${types.join('|')}, got ${t}`];
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) out.push(`${at}: expected ${JSON.stringify(s.const)}`);
  if (s.enum && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value)))
    out.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) out.push(`${at}: below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) out.push(`${at}: above ${s.maximum}`);
  }
  if (typeof value === 'string') {
    if (s.pattern && !new RegExp(s.pattern, 'u').test(value)) out.push(`${at}: does not match ${s.pattern}`);
    if (s.minLength !== undefined && value.length < s.minLength) out.push(`${at}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && value.length > s.maxLength) out.push(`${at}: longer than ${s.maxLength}`);
  }
  if (s.oneOf) {
    const passing = s.oneOf.filter((sub: Schema) => schemaProblems(sub, value, at).length === 0).length;
    if (passing !== 1) out.push(`${at}: matches ${passing} of oneOf`);
  }
  if (s.anyOf && !s.anyOf.some((sub: Schema) => schemaProblems(sub, value, at).length === 0)) out.push(`${at}: matches none of anyOf`);
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of s.required ?? []) if (!(key in obj)) out.push(`${at}: missing ${key}`);
    for (const [key, v] of Object.entries(obj)) {
      const sub = s.properties?.[key];
      if (sub) out.push(...schemaProblems(sub, v, `${at}/${key}`));
      else if (s.additionalProperties === false) out.push(`${at}: unexpected property ${key}`);
      else if (typeof s.additionalProperties === 'object') out.push(...schemaProblems(s.additionalProperties, v, `${at}/${key}`));
    }
  }
  if (Array.isArray(value) && s.items) value.forEach((v, i) => out.push(...schemaProblems(s.items, v, `${at}/${i}`)));
  return out;
}

const operations = Object.entries(doc.paths as Record<string, Schema>).map(([template, item]) => ({
  regex: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  template,
  item,
}));

/** How many responses were checked against the document (the tests assert it grows). */
export const checked = { count: 0 };

/** Asserts that a response is documented (path, method, status) and that its body fits the schema. */
export function assertDocumented(method: string, url: string, status: number, contentType: string | null, body: string): void {
  const path = new URL(url, 'http://x').pathname;
  const op = operations.find((o) => o.regex.test(path));
  assert.ok(op, `${path} is not in the OpenAPI document`);
  const operation = op.item[method.toLowerCase()];
  assert.ok(operation, `${method} ${op.template} is not in the OpenAPI document`);
  let response = operation.responses[String(status)];
  assert.ok(response, `${method} ${op.template} does not document status ${status} (body ${body.slice(0, 200)})`);
  response = resolveRef(response);
  checked.count++;
  if (!response.content) {
    assert.equal(body, '', `${method} ${op.template} ${status} should have no body`);
    return;
  }
  const media = (contentType ?? '').split(';')[0]!.trim();
  const entry = response.content[media];
  assert.ok(
    entry,
    `${method} ${op.template} ${status}: content type ${media} is not documented (${Object.keys(response.content).join(', ')})`,
  );
  // A body without a schema (the image endpoint's PNG) is checked by its media type only.
  if (entry.schema === undefined) return;
  const problems = schemaProblems(entry.schema, JSON.parse(body));
  assert.deepEqual(problems, [], `${method} ${path} ${status} does not fit its schema: ${problems.join('; ')}`);
}

/** A response read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

/**
 * Sends a request and checks the response against the document. `body` is sent as JSON unless it is a
 * string (then as is, with `type`, default application/json).
 */
export async function call(base: string, method: string, path: string, body?: unknown, type = 'application/json'): Promise<Answer> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': type };
  }
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  assertDocumented(method, path, res.status, res.headers.get('content-type'), text);
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** A fetch that checks every response it returns against the document (for HarnessClient). */
export const checkingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const text = await res.clone().text();
  assertDocumented(init?.method ?? 'GET', String(input), res.status, res.headers.get('content-type'), text);
  return res;
};

/** Every event the `chatty` test function received, in order. */
export const chattyEvents: unknown[] = [];

/** Widget functions used by the API tests: deterministic, in-process. */
export const testFunctions: FunctionsConfig = {
  functions: {
    hello: {
      handler: async (event: any) => {
        if (event.describe) return '## Hello\nGreets whoever is named in the form.';
        const name = event.widgetContext.forms.all.who ?? '';
        const who = String(name).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
        const greeting = event.greet ? `<p class="greeting">Hello, ${who}</p>` : '<p class="greeting">Nobody yet</p>';
        return `${greeting}<h2>${event.widgetContext.theme}</h2>
<input name="who" value="${who}">
<select name="color"><option value="red">Red</option><option value="blue">Blue</option></select>
<button>Greet</button><cwdb-action action="call" endpoint="hello">{"greet":true}</cwdb-action>
<button>Reset</button><cwdb-action action="call" endpoint="hello" confirmation="Really reset?">{}</cwdb-action>
<a>Peek</a><cwdb-action action="call" endpoint="hello" display="popup">{"greet":true}</cwdb-action>
<a>Help</a><cwdb-action display="popup"><p>Help text</p></cwdb-action>`;
      },
    },
    json: { handler: async () => ({ a: 1 }) },
    chatty: {
      handler: async (event: any) => {
        chattyEvents.push(event);
        console.log('chatty saw', event.widgetContext.widgetId);
        return '<p>chatty</p>';
      },
    },
    boom: {
      handler: async () => {
        throw new TypeError('broken widget');
      },
    },
  },
};

/** A dashboard over the test functions: hello (custom), text, json (custom, no updateOn), metric, boom. */
export const testDashboard = JSON.stringify({
  widgets: [
    { type: 'custom', properties: { endpoint: 'hello', title: 'Hello' } },
    { type: 'text', properties: { markdown: '# Title' } },
    { type: 'custom', properties: { endpoint: 'arn:aws:lambda:us-east-1:123456789012:function:json', updateOn: {} } },
    { type: 'metric', properties: { metrics: [] } },
    { type: 'custom', properties: { endpoint: 'boom' } },
    { type: 'custom', properties: { endpoint: 'nowhere' } },
  ],
});

/** Starts a harness on a free port. */
export function startTestHarness(options: { maxDashboards?: number; bodyLimit?: number } = {}): Promise<RunningHarness> {
  return startHarness({ functions: testFunctions, port: 0, ...options });
}

/** Creates the test dashboard and returns its id. */
export async function createTestDashboard(base: string, name?: string): Promise<string> {
  const res = await call(base, 'POST', `/api/dashboards${name ? `?name=${encodeURIComponent(name)}` : ''}`, JSON.stringify(testDashboard));
  assert.equal(res.status, 201, res.text);
  return res.json().id;
}

/** A raw answer: status, headers, and the body (parsed when it is JSON). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A raw request, so that `Host`, `Origin` and `Sec-Fetch-*` are exactly what a browser under attack sends. */
export function sendRaw(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: text && /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : text,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
