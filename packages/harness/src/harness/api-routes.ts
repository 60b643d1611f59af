import type { Interpreter } from '../dashboard/index.js';
import { Body, Describe, HttpError, Validate, group, reply, route, type ExecutionContext, type RouteDefinition } from 'trellis';
import { Accepts } from './accepts.js';
import { lintOffThread } from './lint-off-thread.js';
import { actionBody, dashboardQuery, dashboardTextBody, htmlBody, refreshBody, stateBody } from './schemas.js';

const JSON_TYPE = 'application/json';
const JSON_UTF8 = 'application/json; charset=utf-8';
const DASHBOARD = '/api/dashboards/:id';
const WIDGET = `${DASHBOARD}/widgets/:wid`;

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: string) => ({ type: 'array', items: schema(name) });

/** The path parameters' descriptions, for the OpenAPI document. */
const params = {
  id: 'What creation returned.',
  wid: 'The zero-based position of the widget in `widgets`, or `widget-<n>`.',
  index: 'The action index from the action list.',
};
const NOT_FOUND = 'Unknown dashboard, widget or action index (`target`)';
const NOT_A_WIDGET = 'A widget type that cannot be read here (`field`): widgets other than custom and text';

/**
 * What the request guard answers on every `/api/` route, for the OpenAPI document: the guard is a filter of the
 * whole app, so its refusals are said here, once for every route.
 */
export const guardResponses = Describe({
  responses: {
    401: 'The harness needs its token (`Authorization: Bearer <token>`) and none or another was sent',
    403: 'The `Host` is not one the harness answers to, or a browser sent the request from another origin',
  },
});

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
 * The routes of the harness HTTP API over one in-process harness, each described for the OpenAPI document
 * (without `GET /api/openapi.json`, which `harnessRoutes` adds).
 *
 * @example
 * app.route(apiRoutes(createInterpreter({ functions: config })));
 */
export function apiRoutes(harness: Interpreter): RouteDefinition[] {
  const store = harness.store;
  const dashboard = (ctx: ExecutionContext) => store.get(ctx.params.id);
  const json = [Accepts(JSON_TYPE), Body('json')];
  return group({ annotations: [guardResponses] }, [
    route(
      'POST',
      '/api/dashboards',
      [
        ...json,
        Validate({ body: dashboardTextBody, query: dashboardQuery }),
        Describe({
          operationId: 'createDashboard',
          summary: 'Load a dashboard',
          description: 'The body is a JSON string whose content is the dashboard JSON text; the text is stored byte for byte.',
          responses: {
            201: { description: 'Created', headers: { Location: 'The new dashboard.' }, schema: schema('DashboardCreated') },
            400: 'The body is not JSON, has the wrong shape, or the dashboard fails validation (`validationMessages`); or the `name` is not 1–255 characters, once',
            413: {
              description:
                'The body is over the limit, or a new dashboard would pass the dashboard budget (`budget`: `maxDashboardBytes` or `maxDashboards`, with its `limit`) and the dashboards that would have to go to make room are in use (used in the last 60 s, or with an operation in progress); nothing stored is dropped, and `detail` says when room comes back',
              headers: {
                'Retry-After':
                  'Seconds until the dashboards that would make room have been idle for 60 s, if nothing uses them before then',
              },
            },
          },
        }),
      ],
      (ctx) => {
        const d = store.create(ctx.body, { name: dashboardName(ctx) });
        const { id, name, widgets } = d.info();
        return reply({ id, name, widgets }, { status: 201, headers: { location: `/api/dashboards/${encodeURIComponent(id)}` } });
      },
    ),
    route(
      'GET',
      '/api/dashboards',
      [
        Describe({
          operationId: 'listDashboards',
          summary: 'List the stored dashboards',
          responses: {
            200: { description: 'Every stored dashboard, in the order they were loaded', schema: arrayOf('DashboardListEntry') },
          },
        }),
      ],
      () => store.list(),
    ),
    route(
      'GET',
      DASHBOARD,
      [
        Describe({
          operationId: 'getDashboard',
          summary: 'A dashboard with its state and widgets',
          params,
          responses: { 200: { description: 'The dashboard', schema: schema('Dashboard') }, 404: NOT_FOUND },
        }),
      ],
      (ctx) => dashboard(ctx).info(),
    ),
    route(
      'GET',
      `${DASHBOARD}/source`,
      [
        Describe({
          operationId: 'getDashboardSource',
          summary: 'The exact dashboard JSON text that was loaded',
          params,
          responses: { 200: { description: 'The stored bytes', schema: {} }, 404: NOT_FOUND },
        }),
      ],
      (ctx) => reply(dashboard(ctx).source, { status: 200, headers: { 'content-type': JSON_UTF8 } }),
    ),
    route(
      'DELETE',
      DASHBOARD,
      [Describe({ operationId: 'deleteDashboard', summary: 'Remove a dashboard', params, responses: { 204: 'Deleted', 404: NOT_FOUND } })],
      (ctx) => store.delete(ctx.params.id),
    ),
    route(
      'GET',
      `${DASHBOARD}/state`,
      [
        Describe({
          operationId: 'getState',
          summary: 'The effective state',
          params,
          responses: { 200: { description: 'The state', schema: schema('State') }, 404: NOT_FOUND },
        }),
      ],
      (ctx) => dashboard(ctx).getState(),
    ),
    route(
      'PUT',
      `${DASHBOARD}/state`,
      [
        ...json,
        Validate({ body: stateBody, fieldStatus: 422 }),
        Describe({
          operationId: 'putState',
          summary: 'Replace the state',
          description:
            'Omitted fields take the dashboard defaults. Widgets read at least once that the change concerns are re-invoked during the request.',
          params,
          responses: {
            200: { description: 'The new state and the re-invoked widgets', schema: schema('StateUpdate') },
            404: NOT_FOUND,
            422: 'A state field that cannot be applied (`field`)',
          },
        }),
      ],
      (ctx) => dashboard(ctx).putState(ctx.body),
    ),
    route(
      'GET',
      WIDGET,
      [
        Describe({
          operationId: 'readWidget',
          summary: 'A widget as the console shows it',
          description: 'The first read runs the function; later reads return what it showed. Widgets other than custom and text are a 422.',
          params,
          responses: { 200: { description: 'The widget', schema: schema('WidgetResult') }, 404: NOT_FOUND, 422: NOT_A_WIDGET },
        }),
      ],
      (ctx) => dashboard(ctx).readWidget(ctx.params.wid),
    ),
    route(
      'GET',
      `${WIDGET}/actions`,
      [
        Describe({
          operationId: 'listActions',
          summary: 'The actions of the widget current content',
          params,
          responses: { 200: { description: 'The actions', schema: arrayOf('ActionEntry') }, 404: NOT_FOUND, 422: NOT_A_WIDGET },
        }),
      ],
      (ctx) => dashboard(ctx).listActions(ctx.params.wid),
    ),
    route(
      'GET',
      `${WIDGET}/describe`,
      [
        Describe({
          operationId: 'describeWidget',
          summary: 'The function documentation (called with `describe: true`)',
          params,
          responses: { 200: { description: 'The documentation', schema: schema('DescribeResult') }, 404: NOT_FOUND, 422: NOT_A_WIDGET },
        }),
      ],
      (ctx) => dashboard(ctx).describeWidget(ctx.params.wid),
    ),
    route(
      'POST',
      `${WIDGET}/actions/:index`,
      [
        ...json,
        Validate({ body: actionBody, fieldStatus: 422 }),
        Describe({
          operationId: 'runAction',
          summary: 'Click an action',
          description:
            '`display: widget` replaces the widget content; `display: popup` leaves it alone. `forms` override the widget HTML values ' +
            '(a name that is not a field is a 422 listing the known names). `confirm: false` on an action with a confirmation cancels it.',
          params,
          responses: {
            200: { description: 'The result, or the cancellation', schema: { oneOf: [schema('WidgetResult'), schema('CancelledAction')] } },
            404: NOT_FOUND,
            422: 'Forms that cannot be applied, or a widget type that cannot be read (`field`)',
          },
        }),
      ],
      (ctx) => dashboard(ctx).runAction(ctx.params.wid, ctx.params.index, ctx.body),
    ),
    route(
      'POST',
      `${DASHBOARD}/refresh`,
      [
        ...json,
        Validate({ body: refreshBody, fieldStatus: 422 }),
        Describe({
          operationId: 'refresh',
          summary: 'Refresh the dashboard',
          description:
            '`auto` (default) re-invokes widgets with `updateOn.refresh`; `manual` every custom widget. Only widgets read at least once run.',
          params,
          responses: {
            200: { description: 'Which widgets ran', schema: schema('RefreshResult') },
            404: NOT_FOUND,
            422: 'A `mode` that is not `auto` or `manual` (`field`)',
          },
        }),
      ],
      (ctx) => dashboard(ctx).refresh(ctx.body),
    ),
    // Which functions are configured, and which of them got real AWS credentials or an endpoint.
    route(
      'GET',
      '/api/functions',
      [
        Describe({
          operationId: 'listFunctions',
          summary: 'The configured functions',
          description:
            'How each configured function runs, whether its process got real AWS credentials (`awsCredentials`: `none` unless the functions file or a flag opted in), the endpoint its AWS SDK calls instead of AWS, and its setup modules.',
          responses: { 200: { description: 'Every configured function, in configuration order', schema: arrayOf('FunctionInfo') } },
        }),
      ],
      () => harness.functions.describe?.() ?? [],
    ),
    route(
      'POST',
      '/api/lint',
      [
        Accepts('text/html', JSON_TYPE),
        Body(['text', 'json']),
        Validate({ body: htmlBody }),
        Describe({
          operationId: 'lint',
          summary: 'Lint widget HTML',
          description:
            'Reports the HTML the console would strip and malformed `<cwdb-action>` elements. The body is `text/html`, or a JSON string.',
          responses: {
            200: { description: 'The findings', schema: schema('LintResult') },
            422: 'HTML too costly to lint in time',
            429: {
              description: 'The linter is busy with other large documents (`Retry-After`)',
              headers: { 'Retry-After': 'Seconds to wait before sending it again.' },
            },
          },
        }),
      ],
      async (ctx) => ({ findings: await lintOffThread(ctx.body) }),
    ),
  ]);
}
