import { schemas } from './openapi-schemas.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const ok = (description: string, schema: object) => ({ description, content: json(schema) });
const problemRef = (description: string) => ({ $ref: `#/components/responses/${description}` });

const id = { name: 'id', in: 'path', required: true, description: 'What creation returned.', schema: { type: 'string' } };
const wid = {
  name: 'wid',
  in: 'path',
  required: true,
  description: 'The zero-based position of the widget in `widgets`, or `widget-<n>`.',
  schema: { type: 'string' },
};
const index = { name: 'index', in: 'path', required: true, description: 'The action index from the action list.', schema: { type: 'string' } };

const errors = (...codes: Array<400 | 404 | 413 | 415 | 422 | 429>) =>
  Object.fromEntries(codes.map((c) => [String(c), problemRef(`Problem${c}`)]));

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

function paths(): Record<string, object> {
  return {
    '/api/dashboards': {
      post: {
        operationId: 'createDashboard',
        summary: 'Load a dashboard',
        description: 'The body is a JSON string whose content is the dashboard JSON text; the text is stored byte for byte.',
        parameters: [{ name: 'name', in: 'query', required: false, description: 'Default `dashboard`; 1–255 characters.', schema: { type: 'string', minLength: 1, maxLength: 255 } }],
        requestBody: { required: true, content: json({ type: 'string', examples: ['{"widgets":[]}'] }) },
        responses: {
          '201': {
            description: 'Created',
            headers: { Location: { description: 'The new dashboard.', schema: { type: 'string' } } },
            content: json(ref('DashboardCreated')),
          },
          ...errors(400, 413, 415),
        },
      },
      get: {
        operationId: 'listDashboards',
        summary: 'List the stored dashboards',
        responses: { '200': ok('Every stored dashboard, in the order they were loaded', { type: 'array', items: ref('DashboardListEntry') }) },
      },
    },
    '/api/dashboards/{id}': {
      parameters: [id],
      get: { operationId: 'getDashboard', summary: 'A dashboard with its state and widgets', responses: { '200': ok('The dashboard', ref('Dashboard')), ...errors(404) } },
      delete: { operationId: 'deleteDashboard', summary: 'Remove a dashboard', responses: { '204': { description: 'Deleted' }, ...errors(404) } },
    },
    '/api/dashboards/{id}/source': {
      parameters: [id],
      get: {
        operationId: 'getDashboardSource',
        summary: 'The exact dashboard JSON text that was loaded',
        responses: { '200': { description: 'The stored bytes', content: json({}) }, ...errors(404) },
      },
    },
    '/api/dashboards/{id}/state': {
      parameters: [id],
      get: { operationId: 'getState', summary: 'The effective state', responses: { '200': ok('The state', ref('State')), ...errors(404) } },
      put: {
        operationId: 'putState',
        summary: 'Replace the state',
        description: 'Omitted fields take the dashboard defaults. Widgets read at least once that the change concerns are re-invoked during the request.',
        requestBody: { required: true, content: json(ref('StateInput')) },
        responses: { '200': ok('The new state and the re-invoked widgets', ref('StateUpdate')), ...errors(400, 404, 413, 415, 422) },
      },
    },
    '/api/dashboards/{id}/widgets/{wid}': {
      parameters: [id, wid],
      get: {
        operationId: 'readWidget',
        summary: 'A widget as the console shows it',
        description: 'The first read runs the function; later reads return what it showed. Widgets other than custom and text are a 422.',
        responses: { '200': ok('The widget', ref('WidgetResult')), ...errors(404, 422) },
      },
    },
    '/api/dashboards/{id}/widgets/{wid}/actions': {
      parameters: [id, wid],
      get: {
        operationId: 'listActions',
        summary: 'The actions of the widget current content',
        responses: { '200': ok('The actions', { type: 'array', items: ref('ActionEntry') }), ...errors(404, 422) },
      },
    },
    '/api/dashboards/{id}/widgets/{wid}/describe': {
      parameters: [id, wid],
      get: {
        operationId: 'describeWidget',
        summary: 'The function documentation (called with `describe: true`)',
        responses: { '200': ok('The documentation', ref('DescribeResult')), ...errors(404, 422) },
      },
    },
    '/api/dashboards/{id}/widgets/{wid}/actions/{index}': {
      parameters: [id, wid, index],
      post: {
        operationId: 'runAction',
        summary: 'Click an action',
        description: '`display: widget` replaces the widget content; `display: popup` leaves it alone. `confirm: false` on an action with a confirmation cancels it.',
        requestBody: { required: false, content: json(ref('ActionRequest')) },
        responses: {
          '200': ok('The result, or the cancellation', { oneOf: [ref('WidgetResult'), ref('CancelledAction')] }),
          ...errors(400, 404, 413, 415, 422),
        },
      },
    },
    '/api/dashboards/{id}/refresh': {
      parameters: [id],
      post: {
        operationId: 'refresh',
        summary: 'Refresh the dashboard',
        description: '`auto` (default) re-invokes widgets with `updateOn.refresh`; `manual` every custom widget. Only widgets read at least once run.',
        requestBody: { required: false, content: json(ref('RefreshRequest')) },
        responses: { '200': ok('Which widgets ran', ref('RefreshResult')), ...errors(400, 404, 413, 415, 422) },
      },
    },
    '/api/functions': {
      get: {
        operationId: 'listFunctions',
        summary: 'The configured functions',
        description:
          'How each configured function runs, whether its process got real AWS credentials (`awsCredentials`: `none` unless the functions file or a flag opted in), the endpoint its AWS SDK calls instead of AWS, and its setup modules.',
        responses: { '200': ok('Every configured function, in configuration order', { type: 'array', items: ref('FunctionInfo') }) },
      },
    },
    '/api/lint': {
      post: {
        operationId: 'lint',
        summary: 'Lint widget HTML',
        description: 'Reports the HTML the console would strip and malformed `<cwdb-action>` elements.',
        requestBody: { required: true, content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'string' } } } },
        responses: { '200': ok('The findings', ref('LintResult')), ...errors(400, 413, 415, 422, 429) },
      },
    },
    '/api/changes': {
      get: {
        operationId: 'changes',
        summary: 'Wait for the next change (watch mode)',
        description:
          'In watch mode (`trellis harness --watch`) a change to a function\'s files restarts its environments and makes the widgets showing its output run it again on their next read. Without `after`, answers at once with the latest change number; with `after`, answers with the changes after it, waiting up to `wait` seconds for one. `watching` is false when the harness does not watch.',
        parameters: [
          { name: 'after', in: 'query', required: false, description: 'The last change number seen.', schema: { type: 'integer', minimum: 0 } },
          { name: 'wait', in: 'query', required: false, description: 'Seconds to wait for a change; default 25, at most 60.', schema: { type: 'integer', minimum: 0, maximum: 60 } },
        ],
        responses: { '200': ok('The changes after `after`', ref('Changes')), ...errors(400) },
      },
    },
    '/api/openapi.json': {
      get: { operationId: 'openapi', summary: 'This document', responses: { '200': ok('OpenAPI 3.1', { type: 'object' }) } },
    },
  };
}

/** Every operation can be refused by the request guard: a foreign host or origin (403), a missing token (401). */
function withGuard(all: Record<string, object>): Record<string, object> {
  for (const item of Object.values(all) as Array<Record<string, { responses?: Record<string, object> }>>) {
    for (const operation of Object.values(item)) {
      if (!operation.responses) continue; // path-level parameters
      operation.responses['401'] = problemRef('Problem401');
      operation.responses['403'] = problemRef('Problem403');
    }
  }
  return all;
}

let cached: object | null = null;

/**
 * The OpenAPI 3.1 description of the harness HTTP API (served at `/api/openapi.json`).
 *
 * @example
 * const doc = openApiDocument() as { openapi: string }; // doc.openapi === '3.1.0'
 */
export function openApiDocument(): object {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'Trellis dashboard harness',
      version: '0.1.0',
      description:
        'Loads CloudWatch dashboards with custom widgets and behaves like the console: widget reads, actions with forms, state changes and refreshes. Errors are RFC 9457 problem details. Bodies over the limit (default 5 MiB) are a 413.',
    },
    servers: [{ url: 'http://127.0.0.1:4600' }],
    paths: withGuard(paths()),
    security: [{}, { token: [] }],
    components: {
      schemas,
      securitySchemes: {
        token: {
          type: 'http',
          scheme: 'bearer',
          description: 'Needed when the harness listens on an address other than loopback: the token it printed at start-up.',
        },
      },
      responses: {
        Problem401: problemResponse('The harness needs its token (`Authorization: Bearer <token>`) and none or another was sent'),
        Problem403: problemResponse('The `Host` is not one the harness answers to, or a browser sent the request from another origin'),
        Problem400: problemResponse('The body is not JSON, has the wrong shape, or the dashboard fails validation (`validationMessages`)'),
        Problem404: problemResponse('Unknown dashboard, widget or action index (`target`)'),
        Problem413: problemResponse('The body is over the limit, or a new dashboard would pass the dashboard budget (`budget`: `maxDashboardBytes` or `maxDashboards`, with its `limit`); nothing stored is dropped'),
        Problem415: problemResponse('Wrong content type (`supported`)'),
        Problem422: problemResponse('A state, forms or widget type that cannot be applied (`field`), or HTML too costly to lint in time'),
        Problem429: problemResponse('The linter is busy with other large documents (`Retry-After`)'),
      },
    },
  };
  return cached;
}
