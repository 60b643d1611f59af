// The widget app as the harness runs it: the Lambda module (TypeScript) in a warm child process, as Lambda runs
// it, clicked through with the harness's in-process driver on the dashboard in dashboard.json. Run with
// `npm test`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterpreter, loadFunctionsFile, type DashboardDriver, type Interpreter, type WidgetView } from 'trellis-harness/dashboard';

/** The project folder. */
const PROJECT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE = readFileSync(`${PROJECT}dashboard.json`, 'utf8');
const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);

describe('the service status widget', { timeout: 120_000 }, () => {
  let harness: Interpreter;
  let dash: DashboardDriver;
  const clean = (w: WidgetView, what: string) => {
    assert.equal(w.error, null, `${what}: ${JSON.stringify(w.error)}`);
    assert.deepEqual(w.findings, [], `${what} has nothing the console would strip`);
  };

  before(async () => {
    harness = createInterpreter({ functions: await loadFunctionsFile(`${PROJECT}functions.json`), clock: () => NOW });
    dash = await harness.load(SOURCE, { name: 'operations' });
  });
  after(() => harness?.close());

  it("the overview route answers the widget's load: the region from its params, a form, and call actions back into the function", async () => {
    const w = await dash.readWidget(0);
    clean(w, 'overview');
    assert.match(w.html, /<h4>Services in eu-west-1 \(operations\)<\/h4>/);
    assert.deepEqual(
      w.actions.map((a) => [a.text, a.action, a.display, a.confirmation]),
      [
        ['Apply', 'call', 'widget', null],
        ['checkout', 'call', 'popup', null],
        ['Restart checkout', 'call', 'widget', 'Restart checkout in eu-west-1?'],
        ['search', 'call', 'popup', null],
        ['Restart search', 'call', 'widget', 'Restart search in eu-west-1?'],
        ['payments', 'call', 'popup', null],
        ['Restart payments', 'call', 'widget', 'Restart payments in eu-west-1?'],
      ],
    );
    assert.equal(
      w.actions[0]!.endpoint,
      'arn:aws:lambda:eu-west-1:111122223333:function:trellis-service-status',
      'the function calls itself by its ARN',
    );
  });

  it('Apply sends the form: the region and the "Only failing" box choose what is listed', async () => {
    const w = await dash.readWidget(0);
    const us = await w.action('Apply').click({ forms: { region: 'us-east-1' } });
    clean(us, 'us-east-1');
    assert.match(us.html, /Services in us-east-1/);
    assert.deepEqual(
      us.actions.filter((a) => a.display === 'popup').map((a) => a.text),
      ['checkout', 'inventory'],
    );
    const failing = await us.action('Apply').click({ forms: { region: 'eu-west-1', failing: 'on' } });
    assert.deepEqual(
      failing.actions.filter((a) => a.display === 'popup').map((a) => a.text),
      ['search'],
    );
    const single = await harness.load({
      widgets: [{ type: 'custom', properties: { endpoint: 'trellis-service-status', params: { region: 'ap-south-1' } } }],
    });
    const refused = await single.readWidget(0);
    clean(refused, 'a region the schema refuses');
    assert.match(refused.html, /<h4>400 Bad Request<\/h4><p>The request body is invalid: region: /);
  });

  it('a service opens its details in a popup; Restart asks first, runs as POST, and is limited per dashboard with a readable 429', async () => {
    await dash.refresh({ mode: 'manual' });
    const w = await dash.readWidget(0);
    const popup = await w.action('search').click();
    clean(popup, 'details');
    assert.equal(popup.display, 'popup');
    assert.match(popup.html, /<h4>search in eu-west-1<\/h4>/);
    assert.deepEqual(await w.action('Restart search').cancel(), { cancelled: true, confirmation: 'Restart search in eu-west-1?' });
    const first = await w.action('Restart search').click();
    clean(first, 'restart');
    assert.match(first.html, /Restart of search in eu-west-1 requested \(1 so far\)/);
    const back = await first.action('Back to the overview').click();
    assert.match(back.html, /Services in eu-west-1/);
    const second = await back.action('Restart checkout').click();
    assert.match(second.html, /Restart of checkout in eu-west-1 requested/);
    const third = await (await second.action('Back to the overview').click()).action('Restart payments').click();
    clean(third, 'the refused restart');
    assert.match(third.html, /<h4>429 Too Many Requests<\/h4>/);
    assert.match(third.html, /Try again in \d+ seconds?\./);
    const other = await harness.load(SOURCE, { name: 'another-dashboard' });
    assert.match(
      (await (await other.readWidget(0)).action('Restart payments').click()).html,
      /Restart of payments in eu-west-1 requested/,
      'another dashboard has its own allowance',
    );
  });

  it('a widget whose params pick the /report route shows Markdown', async () => {
    const w = await dash.readWidget(1);
    clean(w, 'report');
    assert.match(w.html, /<h3>Failing services<\/h3>/);
    assert.match(w.html, /<strong>inventory<\/strong> in us-east-1/);
  });

  it('describe lists the routes with their parameters and the rate limit', async () => {
    const d = await dash.describeWidget(0);
    assert.equal(d.error, null);
    assert.match(d.markdown!, /^## Service status widget\n/);
    assert.match(d.markdown!, /### `\/restart` \(POST\)\n\nRequests a restart of a service\.\n\n\| Parameter/);
    assert.match(d.markdown!, /\| `region` \| `"eu-west-1"`, `"us-east-1"` \| no \| Which region to show\. Default: `"eu-west-1"`\. \|/);
    assert.match(d.markdown!, /Rate limit `restarts`: 2 per 60 s\./);
  });
});
