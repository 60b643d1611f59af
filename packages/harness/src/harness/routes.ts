import type { Interpreter, RefreshOptions, RunActionOptions, StateInput } from '../dashboard/index.js';
import { HttpError, Validate, reply, route, type ExecutionContext, type RouteDefinition } from 'trellis';
import { Accepts } from './accepts.js';
import { lintOffThread } from './lint-off-thread.js';
import { openApiDocument } from './openapi.js';
import { actionBody, dashboardTextBody, htmlBody, refreshBody, stateBody } from './schemas.js';

const JSON_TYPE = 'application/json';
const JSON_UTF8 = 'application/json; charset=utf-8';
const DASHBOARD = '/api/dashboards/:id';
const WIDGET = `${DASHBOARD}/widgets/:wid`;

function dashboardName(ctx: ExecutionContext): string | undefined {
  const names = ctx.request.query.getAll('name');
  if (names.length === 0) return undefined;
  const name = names[0]!;
  if (names.length > 1 || name.length === 0 || name.length > 255) {
    const got = names.length > 1 ? `${names.length} names` : `${name.length} characters`;
    throw new HttpError(400, `The query parameter "name" should be given once, 1 to 255 characters; got ${got}.`, { field: 'name' });
  }
  return name;
}

/**
 * The routes of the harness HTTP API (SPEC §4.3) over one in-process harness.
 *
 * @example
 * app.route(harnessRoutes(createInterpreter({ functions: config })));
 */
export function harnessRoutes(harness: Interpreter): RouteDefinition[] {
  const store = harness.store;
  const dashboard = (ctx: ExecutionContext) => store.get(ctx.params.id);
  const json = [Accepts(JSON_TYPE)];
  return [
    route('POST', '/api/dashboards', [...json, Validate({ body: dashboardTextBody })], (ctx) => {
      const d = store.create(ctx.body as string, { name: dashboardName(ctx) });
      const { id, name, widgets } = d.info();
      return reply({ id, name, widgets }, { status: 201, headers: { location: `/api/dashboards/${encodeURIComponent(id)}` } });
    }),
    route('GET', '/api/dashboards', () => store.list()),
    route('GET', DASHBOARD, (ctx) => dashboard(ctx).info()),
    route('GET', `${DASHBOARD}/source`, (ctx) => reply(dashboard(ctx).source, { status: 200, headers: { 'content-type': JSON_UTF8 } })),
    route('DELETE', DASHBOARD, (ctx) => store.delete(ctx.params.id)),
    route('GET', `${DASHBOARD}/state`, (ctx) => dashboard(ctx).getState()),
    route('PUT', `${DASHBOARD}/state`, [...json, Validate({ body: stateBody, fieldStatus: 422 })], (ctx) => dashboard(ctx).putState(ctx.body as StateInput)),
    route('GET', WIDGET, (ctx) => dashboard(ctx).readWidget(ctx.params.wid)),
    route('GET', `${WIDGET}/actions`, (ctx) => dashboard(ctx).listActions(ctx.params.wid)),
    route('GET', `${WIDGET}/describe`, (ctx) => dashboard(ctx).describe(ctx.params.wid)),
    route('POST', `${WIDGET}/actions/:index`, [...json, Validate({ body: actionBody, fieldStatus: 422 })], (ctx) =>
      dashboard(ctx).runAction(ctx.params.wid, ctx.params.index, ctx.body as RunActionOptions),
    ),
    route('POST', `${DASHBOARD}/refresh`, [...json, Validate({ body: refreshBody, fieldStatus: 422 })], (ctx) =>
      dashboard(ctx).refresh(ctx.body as RefreshOptions),
    ),
    // Which functions are configured, and which of them got real AWS credentials or an endpoint.
    route('GET', '/api/functions', () => harness.functions.describe?.() ?? []),
    route('POST', '/api/lint', [Accepts('text/html', JSON_TYPE), Validate({ body: htmlBody })], async (ctx) => ({ findings: await lintOffThread(ctx.body as string) })),
    route('GET', '/api/openapi.json', () => openApiDocument()),
  ];
}
