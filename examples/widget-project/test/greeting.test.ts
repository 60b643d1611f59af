// Click-through tests of the dashboard in dashboard.json, run by the harness's in-process driver as the
// CloudWatch console would run them: the widget's HTML, what the console would strip from it, and its button.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createInterpreter, loadFunctionsFile, type DashboardDriver, type Interpreter } from 'trellis-harness/dashboard';

/** The project folder. */
const PROJECT = fileURLToPath(new URL('../', import.meta.url));
let interpreter: Interpreter;
let dashboard: DashboardDriver;

before(async () => {
  interpreter = createInterpreter({ functions: await loadFunctionsFile(`${PROJECT}functions.json`) });
  dashboard = await interpreter.load(await readFile(`${PROJECT}dashboard.json`, 'utf8'), { name: 'greeting' });
});

after(() => interpreter.close());

describe('the greeting widget', () => {
  it('greets the name in its params, with nothing the console would strip', async () => {
    const widget = await dashboard.readWidget(0);
    assert.equal(widget.error, null);
    assert.match(widget.html, /Hello, Ada!/);
    assert.deepEqual(widget.findings, []);
  });

  it('Greet sends the typed name, escaped', async () => {
    const widget = await dashboard.readWidget(0);
    const greeted = await widget.action('Greet').click({ forms: { visitor: '<Grace>' } });
    assert.equal(greeted.error, null);
    assert.match(greeted.html, /Hello, &lt;Grace&gt;!/);
  });

  it('documents itself', async () => {
    assert.match((await dashboard.describeWidget(0)).markdown ?? '', /Greets `name`/);
  });
});
