// node --test: the harness in this process, driven over HTTP with HarnessClient.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { loadFunctionsFile } from 'trellis-harness/dashboard';
import { HarnessClient, startHarness } from 'trellis-harness';

let harness;
let client;
let id;

before(async () => {
  harness = await startHarness({ functions: await loadFunctionsFile('functions.json'), port: 0 });
  client = new HarnessClient(harness.url);
  ({ id } = await client.createDashboard(await readFile('dashboard.json', 'utf8'), { name: 'greeting' }));
});

after(() => harness.close());

test('greets the name in its params', async () => {
  const widget = await client.readWidget(id, 0);
  assert.equal(widget.error, null);
  assert.match(widget.html, /Hello, Ada!/);
  assert.deepEqual(widget.findings, []);
});

test('Greet sends the typed name', async () => {
  const greet = await client.findAction(id, 0, 'Greet');
  const result = await client.runAction(id, 0, greet.index, { forms: { visitor: '<Grace>' } });
  assert.match(result.html, /Hello, &lt;Grace&gt;!/);
});
