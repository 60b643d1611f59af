// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the harness API's bodies.
import {
  STATE_FIELDS,
  dashboardWidthSchema,
  stateInputSchema,
  timeRangeSchema,
  widgetSizesSchema,
  zoomSchema,
} from '../dashboard/index.js';
import { requestSchemas } from './schemas.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });
const widgetId = { type: 'string', pattern: '^widget-(0|[1-9][0-9]*)$', examples: ['widget-0'] };

export const schemas: Record<string, object> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details; extensions sit beside the standard members.',
    required: ['title', 'status'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      instance: { type: 'string' },
      validationMessages: { type: 'array', items: ref('ValidationMessage') },
      target: { type: 'string', enum: ['dashboard', 'widget', 'action'] },
      field: { type: 'string', description: 'The field that cannot be applied (`theme`, `forms.color`, `type`, …).' },
      issues: {
        type: 'array',
        items: {
          type: 'object',
          required: ['message', 'path'],
          properties: { message: { type: 'string' }, path: { type: 'array', items: { type: 'string' } } },
        },
      },
      supported: { type: 'array', items: { type: 'string' } },
      limit: { type: 'integer' },
      budget: {
        type: 'string',
        enum: ['maxDashboardBytes', 'maxDashboards'],
        description: 'The dashboard budget a new dashboard would pass (with `limit`).',
      },
    },
  },
  ValidationMessage: {
    type: 'object',
    required: ['dataPath', 'message'],
    additionalProperties: false,
    properties: {
      dataPath: { type: 'string', description: 'A JSON pointer into the dashboard, e.g. /widgets/0/width.' },
      message: { type: 'string' },
    },
  },
  UpdateOn: {
    type: 'object',
    required: ['refresh', 'resize', 'timeRange'],
    additionalProperties: false,
    properties: { refresh: { type: 'boolean' }, resize: { type: 'boolean' }, timeRange: { type: 'boolean' } },
  },
  WidgetSummary: {
    type: 'object',
    required: ['widgetId', 'index', 'type', 'title', 'endpoint', 'updateOn'],
    additionalProperties: false,
    properties: {
      widgetId,
      index: { type: 'integer', minimum: 0 },
      type: { type: 'string', enum: ['custom', 'text', 'metric', 'log', 'alarm', 'explorer'] },
      title: { type: ['string', 'null'] },
      endpoint: { type: ['string', 'null'] },
      updateOn: nullable(ref('UpdateOn')),
    },
  },
  DashboardCreated: {
    type: 'object',
    required: ['id', 'name', 'widgets'],
    additionalProperties: false,
    properties: { id: { type: 'string' }, name: { type: 'string' }, widgets: { type: 'array', items: ref('WidgetSummary') } },
  },
  FunctionInfo: {
    type: 'object',
    required: ['name', 'runtime', 'lambdaRuntime', 'awsCredentials', 'awsEndpoint', 'setup'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', description: 'The key in the functions file: a function name or an ARN.' },
      runtime: { type: 'string', enum: ['nodejs', 'python', 'in-process', 'invoke-api'] },
      lambdaRuntime: {
        type: ['string', 'null'],
        description: 'The Lambda runtime it was configured with (`nodejs24.x`, `python3.12`, …), or null when none was named.',
      },
      awsCredentials: {
        type: ['string', 'null'],
        description:
          '`none`, `environment` or `profile:NAME`; `host` for a function run in the harness process; null when another program runs it.',
      },
      awsEndpoint: { type: ['string', 'null'], description: 'The AWS endpoint its SDK calls (`AWS_ENDPOINT_URL`), or null.' },
      setup: { type: 'array', items: { type: 'string' }, description: 'Modules loaded before its handler.' },
    },
  },
  DashboardListEntry: {
    type: 'object',
    required: ['id', 'name'],
    additionalProperties: false,
    properties: { id: { type: 'string' }, name: { type: 'string' } },
  },
  Dashboard: {
    type: 'object',
    required: ['id', 'name', 'state', 'widgets'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      state: ref('State'),
      widgets: { type: 'array', items: ref('WidgetSummary') },
    },
  },
  Zoom: zoomSchema,
  TimeRange: timeRangeSchema,
  State: {
    type: 'object',
    description: 'The effective state of a dashboard; also a valid PUT body.',
    // Every field but the zoom, which is part of the time range when there is one.
    required: STATE_FIELDS.filter((field) => field !== 'zoom'),
    properties: {
      timeRange: ref('TimeRange'),
      period: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'auto' }] },
      theme: { type: 'string', enum: ['light', 'dark'] },
      timezone: { type: 'string' },
      locale: { type: 'string' },
      accountId: { type: 'string', pattern: '^[0-9]{12}$' },
      dashboardName: { type: 'string' },
      linkCharts: { type: 'boolean' },
      dashboardWidth: {
        ...dashboardWidthSchema,
        description:
          'The width in pixels that the 24 grid columns span. A widget of c columns and r rows is told ' +
          'width = round(c * dashboardWidth / 24) - 10 and height = r * 68 - 39 (a 6 x 6 widget at 2392: 588 x 369). ' +
          'The web page sends the width of its dashboard area.',
      },
      widgetSizes: { ...widgetSizesSchema, description: 'Sizes set for single widgets, keyed by widget id.' },
    },
  },
  // What PUT …/state and the driver's setState accept, as the interpreter checks it; unknown fields and bad values are a 422 naming the field.
  StateInput: stateInputSchema,
  StateUpdate: {
    type: 'object',
    required: ['state', 'updated'],
    additionalProperties: false,
    properties: { state: ref('State'), updated: { type: 'array', items: widgetId } },
  },
  Finding: {
    type: 'object',
    required: ['rule', 'severity', 'message', 'line', 'column', 'element'],
    additionalProperties: false,
    properties: {
      rule: { type: 'string' },
      severity: { type: 'string', enum: ['error', 'warning'] },
      message: { type: 'string' },
      line: { type: 'integer', minimum: 1 },
      column: { type: 'integer', minimum: 1 },
      element: { type: 'string' },
      attribute: { type: 'string' },
    },
  },
  WidgetError: {
    type: 'object',
    required: ['type', 'message'],
    properties: {
      type: {
        type: 'string',
        examples: ['Error', 'TypeError', 'Sandbox.Timedout', 'Runtime.ExitError', 'FunctionNotFound', 'TargetUnreachable'],
      },
      message: { type: 'string' },
    },
  },
  WidgetResult: {
    type: 'object',
    required: ['widgetId', 'html', 'display', 'event', 'raw', 'findings', 'error', 'invocations', 'invocation'],
    additionalProperties: false,
    properties: {
      widgetId,
      html: { type: 'string', description: 'What the console would show, before stripping.' },
      display: { type: 'string', enum: ['widget', 'popup'] },
      event: { type: 'string', enum: ['load', 'refresh', 'timeRange', 'resize', 'state', 'click', 'dblclick', 'mouseenter'] },
      raw: { description: 'Exactly what the function returned.' },
      findings: { type: 'array', items: ref('Finding') },
      error: nullable(ref('WidgetError')),
      invocations: { type: 'integer', minimum: 0 },
      invocation: {
        ...nullable(ref('WidgetInvocation')),
        description: 'Beyond the seed: the function call that produced this content; null when none did (an html action, a text widget).',
      },
    },
  },
  WidgetInvocation: {
    type: 'object',
    required: ['event', 'awsRequestId', 'durationMs', 'logs'],
    additionalProperties: false,
    properties: {
      event: { description: 'The event exactly as the function received it.' },
      awsRequestId: { type: 'string', description: 'The request id of the call; empty when no function answered.' },
      durationMs: { type: 'number', minimum: 0, description: 'How long the function ran, in milliseconds.' },
      logs: { type: 'string', description: "What the function printed during the call, in Lambda's log format." },
    },
  },
  ActionEntry: {
    type: 'object',
    required: ['index', 'text', 'action', 'display', 'confirmation', 'event'],
    additionalProperties: false,
    properties: {
      index: { type: 'integer', minimum: 0 },
      text: { type: 'string' },
      action: { type: 'string', enum: ['call', 'html'] },
      display: { type: 'string', enum: ['popup', 'widget'] },
      confirmation: { type: ['string', 'null'] },
      event: { type: 'string', enum: ['click', 'dblclick', 'mouseenter'] },
      endpoint: { type: 'string' },
      params: {},
      html: { type: 'string' },
    },
  },
  ...requestSchemas,
  CancelledAction: {
    type: 'object',
    required: ['cancelled', 'confirmation'],
    additionalProperties: false,
    properties: { cancelled: { const: true }, confirmation: { type: 'string' } },
  },
  DescribeResult: {
    type: 'object',
    required: ['markdown', 'html', 'error'],
    additionalProperties: false,
    properties: { markdown: { type: ['string', 'null'] }, html: { type: 'string' }, error: nullable(ref('WidgetError')) },
  },
  RefreshResult: {
    type: 'object',
    required: ['refreshed', 'skipped'],
    additionalProperties: false,
    properties: { refreshed: { type: 'array', items: widgetId }, skipped: { type: 'array', items: widgetId } },
  },
  Changes: {
    type: 'object',
    required: ['watching', 'seq', 'changes'],
    additionalProperties: false,
    properties: {
      watching: { type: 'boolean' },
      seq: { type: 'integer', minimum: 0 },
      changes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['seq', 'at', 'files', 'functions', 'widgets'],
          additionalProperties: false,
          properties: {
            seq: { type: 'integer', minimum: 1 },
            at: { type: 'string' },
            files: { type: 'array', items: { type: 'string' } },
            functions: { type: 'array', items: { type: 'string' } },
            widgets: { type: 'object', additionalProperties: { type: 'array', items: widgetId } },
          },
        },
      },
    },
  },
  LintResult: {
    type: 'object',
    required: ['findings'],
    additionalProperties: false,
    properties: { findings: { type: 'array', items: ref('Finding') } },
  },
};
