// Vitest: the in-process driver of trellis-harness/dashboard, no HTTP at all.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInterpreter, loadFunctionsFile } from 'trellis-harness/dashboard';

let interpreter;
let dashboard;

beforeAll(async () => {
  interpreter = createInterpreter({ functions: await loadFunctionsFile('functions.json') });
  dashboard = await interpreter.load(await readFile('dashboard.json', 'utf8'), { name: 'greeting' });
});

afterAll(() => interpreter.close());

test('greets the name in its params', async () => {
  const widget = await dashboard.readWidget(0);
  expect(widget.error).toBeNull();
  expect(widget.html).toContain('Hello, Ada!');
  expect(widget.findings).toEqual([]);
});

test('Greet sends the typed name', async () => {
  const widget = await dashboard.readWidget(0);
  const after = await widget.action('Greet').click({ forms: { visitor: 'Grace' } });
  expect(after.html).toContain('Hello, Grace!');
});
