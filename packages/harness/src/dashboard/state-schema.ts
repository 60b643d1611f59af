// The dashboard state as written (`setState`, PUT …/state), described once: the interpreter checks a state against
// these schemas and the API's OpenAPI document shows them. What a schema cannot say — a date-time's syntax, a time
// zone or locale the runtime knows, which widgets a dashboard has — state.ts checks after it.
import { DEFAULT_DASHBOARD_WIDTH } from './geometry.js';
import type { JsonSchema } from './functions/index.js';

/** The largest pixel size a state holds. */
export const MAX_PIXELS = 100_000;
/** The narrowest dashboard: ten pixels a column. */
export const MIN_DASHBOARD_WIDTH = 240;

/** What a point in time is written as. */
export const INSTANT = 'an ISO 8601 date-time such as "2024-05-01T12:00:00Z" or epoch milliseconds';

const instant = {
  description: INSTANT,
  oneOf: [{ type: 'integer', minimum: -8.64e15, maximum: 8.64e15 }, { type: 'string' }],
};

export const zoomSchema: JsonSchema = {
  type: 'object',
  description: 'an object { start, end }',
  required: ['start', 'end'],
  additionalProperties: false,
  properties: { start: instant, end: instant },
};

const nullableZoom = { description: 'an object { start, end }, or null', oneOf: [zoomSchema, { type: 'null' }] };

export const timeRangeSchema: JsonSchema = {
  type: 'object',
  description: '{ relative: "-PT3H" } or { start, end } (ISO 8601 or epoch milliseconds), optionally with a zoom',
  additionalProperties: false,
  properties: {
    relative: {
      type: 'string',
      description: 'a negative ISO 8601 duration such as "-PT3H", "-P7D" or "-P3M"',
      examples: ['-PT3H', '-P7D'],
    },
    start: instant,
    end: { description: `${instant.description}, or null for "now"`, oneOf: [...instant.oneOf, { type: 'null' }] },
    zoom: nullableZoom,
  },
};

const pixels = { type: 'integer', minimum: 1, maximum: MAX_PIXELS, description: `a whole number of pixels from 1 to ${MAX_PIXELS}` };

export const dashboardWidthSchema: JsonSchema = {
  type: 'integer',
  minimum: MIN_DASHBOARD_WIDTH,
  maximum: MAX_PIXELS,
  default: DEFAULT_DASHBOARD_WIDTH,
  description: `a whole number of pixels from ${MIN_DASHBOARD_WIDTH} to ${MAX_PIXELS}`,
};

export const widgetSizesSchema: JsonSchema = {
  type: 'object',
  description: 'an object of widget index or id to { width, height }, e.g. { "3": { "width": 400 } } (a side left out follows the cell)',
  additionalProperties: {
    type: 'object',
    description: 'an object { width, height } (either or both)',
    minProperties: 1,
    additionalProperties: false,
    properties: { width: pixels, height: pixels },
  },
  examples: [{ 3: { width: 400, height: 250 } }],
};

/** What a state accepts: any subset of its fields; omitted fields take the dashboard's defaults. */
export const stateInputSchema: JsonSchema = {
  type: 'object',
  description: 'an object of state fields',
  additionalProperties: false,
  properties: {
    timeRange: timeRangeSchema,
    zoom: nullableZoom,
    period: { description: '"auto" or a positive whole number of seconds', oneOf: [{ type: 'integer', minimum: 1 }, { const: 'auto' }] },
    theme: { type: 'string', enum: ['light', 'dark'], description: '"light" or "dark"' },
    timezone: {
      type: 'string',
      description: '"UTC", an offset such as "+02:00", or an IANA zone such as "Europe/Berlin"',
      examples: ['UTC', '+02:00', 'Europe/Berlin'],
    },
    locale: { type: 'string', minLength: 1, description: 'a BCP 47 language tag such as "en" or "de-DE"' },
    accountId: { type: 'string', pattern: '^[0-9]{12}$', description: 'a string of 12 digits' },
    dashboardName: { type: 'string', minLength: 1, maxLength: 255, description: 'a string of 1 to 255 characters' },
    linkCharts: { type: 'boolean', description: 'true or false' },
    dashboardWidth: dashboardWidthSchema,
    widgetSizes: widgetSizesSchema,
  },
};
