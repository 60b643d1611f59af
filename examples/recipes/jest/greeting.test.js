// Jest: starts `trellis harness --port 0` as a user would, reads the URL from its first line, then uses HTTP.
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { createInterface } = require('node:readline');

let harness;
let url;
let id;

async function api(method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
  return res.json();
}

beforeAll(async () => {
  harness = spawn('node_modules/.bin/trellis', ['harness', '--functions', 'functions.json', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise((resolve, reject) => {
    createInterface({ input: harness.stdout }).once('line', resolve);
    harness.once('exit', (code) => reject(new Error(`the harness exited with ${code}`)));
  });
  url = /^Trellis harness listening on (\S+)$/.exec(firstLine)[1];
  ({ id } = await api('POST', '/api/dashboards?name=greeting', readFileSync('dashboard.json', 'utf8')));
});

afterAll(async () => {
  const exited = new Promise((resolve) => harness.once('exit', resolve));
  harness.kill('SIGTERM');
  await exited;
});

test('greets the name in its params', async () => {
  const widget = await api('GET', `/api/dashboards/${id}/widgets/0`);
  expect(widget.error).toBeNull();
  expect(widget.html).toContain('Hello, Ada!');
});

test('Greet sends the typed name', async () => {
  const actions = await api('GET', `/api/dashboards/${id}/widgets/0/actions`);
  const greet = actions.find((a) => a.text === 'Greet');
  const result = await api('POST', `/api/dashboards/${id}/widgets/0/actions/${greet.index}`, { forms: { visitor: 'Grace' } });
  expect(result.html).toContain('Hello, Grace!');
});
