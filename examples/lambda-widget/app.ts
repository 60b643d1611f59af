// A CloudWatch custom widget built as a Trellis app: each view is a route, picked by the `route` parameter.
import { z } from 'zod';
import { createApp, Describe, HttpError, RegistrationType, route, Validate, type ExecutionContext } from 'trellis';
import { routeAction, widgetContext, WidgetRateLimitPartitioner } from 'trellis/lambda';
import { RateLimit, RateLimitPartitioner } from 'trellis/ratelimit';
import { checkbox, html, markdown, select } from 'trellis/widgets';

interface Service {
  name: string;
  region: string;
  healthy: boolean;
  latencyMs: number;
}

const REGIONS = ['eu-west-1', 'us-east-1'] as const;
const SERVICES: Service[] = [
  { name: 'checkout', region: 'eu-west-1', healthy: true, latencyMs: 41 },
  { name: 'search', region: 'eu-west-1', healthy: false, latencyMs: 930 },
  { name: 'payments', region: 'eu-west-1', healthy: true, latencyMs: 67 },
  { name: 'checkout', region: 'us-east-1', healthy: true, latencyMs: 38 },
  { name: 'inventory', region: 'us-east-1', healthy: false, latencyMs: 1204 },
];

const overviewParams = z.object({
  region: z.enum(REGIONS).default('eu-west-1').describe('Which region to show.'),
  failing: z.literal('on').optional().describe('Set (the "Only failing" box) to list unhealthy services only.'),
});
// Buttons name a service by `id` (region:name), a name no form field uses: form values win over a call's params.
const serviceParams = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9-]+:[a-z]+$/)
    .describe('The service, as `region:name`.'),
});

/** Restart requests per service, kept by this execution environment (a real widget would call an API). */
const restarts = new Map<string, number>();

const idOf = (s: Service): string => `${s.region}:${s.name}`;

function find(id: string): Service {
  const service = SERVICES.find((s) => idOf(s) === id);
  if (!service) throw new HttpError(404, `No service ${id}.`);
  return service;
}

function overview(ctx: ExecutionContext) {
  const { region, failing } = ctx.body as z.infer<typeof overviewParams>;
  const shown = SERVICES.filter((s) => s.region === region && (!failing || !s.healthy));
  const rows = shown.map(
    (s) => html`<tr><td><a>${s.name}</a>${routeAction(ctx, '/service', { id: idOf(s) }, { display: 'popup' })}</td>
<td>${s.healthy ? 'healthy' : 'failing'}</td><td>${s.latencyMs} ms</td>
<td><button>Restart ${s.name}</button>${routeAction(ctx, '/restart', { id: idOf(s) }, { confirmation: `Restart ${s.name} in ${region}?` })}</td></tr>`,
  );
  return html`<h4>Services in ${region} (${widgetContext(ctx).dashboardName})</h4>
<form>${select('region', [...REGIONS], { selected: region })} ${checkbox('failing', { checked: failing === 'on', label: 'Only failing' })}</form>
<button class="btn btn-primary">Apply</button>${routeAction(ctx, '/')}
<table><tr><th>Service</th><th>Health</th><th>Latency</th><th></th></tr>${rows}</table>
${shown.length === 0 ? html`<p>No services to show.</p>` : ''}`;
}

function details(ctx: ExecutionContext) {
  const s = find((ctx.body as z.infer<typeof serviceParams>).id);
  return html`<h4>${s.name} in ${s.region}</h4>
<table><tr><th>Health</th><td>${s.healthy ? 'healthy' : 'failing'}</td></tr><tr><th>Latency</th><td>${s.latencyMs} ms</td></tr>
<tr><th>Restarts requested</th><td>${restarts.get(idOf(s)) ?? 0}</td></tr></table>`;
}

function restart(ctx: ExecutionContext) {
  const s = find((ctx.body as z.infer<typeof serviceParams>).id);
  const count = (restarts.get(idOf(s)) ?? 0) + 1;
  restarts.set(idOf(s), count);
  return html`<p class="restarted">Restart of ${s.name} in ${s.region} requested (${count} so far).</p>
<button>Back to the overview</button>${routeAction(ctx, '/')}`;
}

function report() {
  const failing = SERVICES.filter((s) => !s.healthy);
  return markdown(`### Failing services\n\n${failing.map((s) => `- **${s.name}** in ${s.region}: ${s.latencyMs} ms`).join('\n')}`);
}

/** Builds the widget app: four routes, one of them rate limited per dashboard. */
export function createStatusApp() {
  const app = createApp();
  // Widget events carry no caller: restarts are limited per dashboard.
  app.services.addValue(RateLimitPartitioner, new WidgetRateLimitPartitioner({ by: 'dashboard' }), { type: RegistrationType.Replace });
  app.route(
    route(
      'GET',
      '/',
      [Describe('Service health in one region, with a form to pick the region.'), Validate({ body: overviewParams })],
      overview,
    ),
    route('GET', '/service', [Describe("One service's details (opened as a popup)."), Validate({ body: serviceParams })], details),
    route(
      'POST',
      '/restart',
      [
        Describe('Requests a restart of a service.'),
        Validate({ body: serviceParams }),
        RateLimit({ name: 'restarts', permitLimit: 2, windowSeconds: 60 }),
      ],
      restart,
    ),
    route('GET', '/report', [Describe('The failing services as Markdown.')], report),
  );
  return app;
}
