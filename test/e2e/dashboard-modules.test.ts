import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createInterpreter } from '../../packages/harness/src/dashboard/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/dashboards/', import.meta.url));

test('an unmodified Node.js Lambda module runs through the driver in a child process', async (t) => {
  const harness = createInterpreter({
    functions: {
      functions: {
        greeter: { handler: 'greeter.handler', timeoutSeconds: 20 },
        chatty: { handler: 'greeter.chatty', timeoutSeconds: 20 },
      },
      baseDir: fixtures,
    },
  });
  t.after(() => harness.close());
  const dash = await harness.load({
    widgets: [
      {
        type: 'custom',
        width: 4,
        properties: { endpoint: 'arn:aws:lambda:eu-west-1:123456789012:function:greeter:live', params: { name: 'Ada' } },
      },
      { type: 'custom', properties: { endpoint: 'chatty' } },
    ],
  });
  const w = await dash.readWidget(0);
  assert.equal(w.error, null);
  assert.match(w.html, /<h1>Hello Ada<\/h1><p>greeter 389x369<\/p>/);
  assert.deepEqual(w.findings, []);
  const after = await w.action('Greet').click({ forms: { who: 'Grace' } });
  assert.match(after.html, /<h1>Hello Grace<\/h1>/);
  assert.equal(after.invocations, 2);
  assert.equal((await dash.describeWidget(0)).markdown, '## Greeter\n\nSays hello to `name`.');
  const chatty = await dash.readWidget(1);
  assert.equal(chatty.html, '<p>42</p>');
  assert.match(chatty.logs, /computing the answer/);
  assert.equal((await dash.readWidget(1)).logs, chatty.logs, 'a cached read keeps the logs of the run that produced it');
});
