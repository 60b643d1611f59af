import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DashboardValidationError, type ValidationMessage } from './errors.js';
import { MAX_JSON_DEPTH, escapePointer, tooDeep } from './json-depth.js';
import { isRecord, parseJsonText } from './functions/index.js';
import { markdownLengthProblem } from './markdown.js';
import { WIDGET_TYPES, type DashboardModel, type UpdateOn, type WidgetModel, type WidgetType } from './model.js';
import { parseIsoDateTime, parseRelative } from './time-range.js';

const MAX_WIDGETS = 500;
const integer = (minimum: number, maximum?: number) => ({ type: 'integer', minimum, ...(maximum === undefined ? {} : { maximum }) });
const whenType = (type: WidgetType, properties: object) => ({
  if: { required: ['type'], properties: { type: { const: type } } },
  then: { properties: { properties } },
});

/**
 * The dashboard body as PutDashboard takes it, for the widgets the harness reads: CloudWatch lists every problem,
 * and so does the harness (what a schema cannot say — times, markdown's length — is checked after it).
 */
const dashboardSchema = {
  type: 'object',
  description: 'an object with a "widgets" array',
  required: ['widgets'],
  properties: {
    start: { type: 'string' },
    end: { type: 'string' },
    periodOverride: { enum: ['auto', 'inherit'], description: '"auto" or "inherit"' },
    widgets: {
      type: 'array',
      maxItems: MAX_WIDGETS,
      // The widget's own fields first, then what its type asks of its properties (the order messages are in).
      items: {
        allOf: [
          {
            type: 'object',
            required: ['type', 'properties'],
            properties: {
              type: { enum: WIDGET_TYPES },
              x: integer(0, 23),
              y: integer(0),
              width: integer(1, 24),
              height: integer(1, 1000),
              properties: { type: 'object', properties: { title: { type: 'string' } } },
            },
          },
          whenType('custom', {
            required: ['endpoint'],
            properties: {
              endpoint: { type: 'string', pattern: '\\S', description: 'a Lambda function ARN (or function name) as a non-empty string' },
              updateOn: {
                type: 'object',
                description: 'an object with boolean "refresh", "resize", "timeRange"',
                additionalProperties: false,
                properties: { refresh: { type: 'boolean' }, resize: { type: 'boolean' }, timeRange: { type: 'boolean' } },
              },
            },
          }),
          whenType('text', { required: ['markdown'], properties: { markdown: { type: 'string' } } }),
        ],
      },
    },
  },
};

let compiled: ValidateFunction | undefined;
/** The schema's check, compiled on the first dashboard (compiling takes tens of milliseconds: not at import). */
const validate = (value: unknown): ValidateFunction => {
  compiled ??= new Ajv({ allErrors: true, verbose: true, strictTypes: false }).compile(dashboardSchema);
  compiled(value);
  return compiled;
};

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** One of the validator's findings in CloudWatch's words (the `if` behind a widget type's rules says nothing itself). */
function messageOf(e: ErrorObject): ValidationMessage | null {
  const shown = e.data === undefined ? '' : JSON.stringify(e.data);
  const described = (e.parentSchema as { description?: string } | undefined)?.description;
  const here = (message: string): ValidationMessage => ({ dataPath: e.instancePath, message });
  switch (e.keyword) {
    case 'if':
      return null;
    case 'required':
      return here(`Should have required property '${String(e.params.missingProperty)}'`);
    case 'additionalProperties': {
      const known = Object.keys((e.parentSchema as { properties: object }).properties);
      return {
        dataPath: `${e.instancePath}/${escapePointer(String(e.params.additionalProperty))}`,
        message: `Unknown property; allowed are ${known.join(', ')}`,
      };
    }
    case 'type': {
      const got = e.params.type === 'integer' && typeof e.data === 'number' ? String(e.data) : typeName(e.data);
      return here(`Should be ${described ?? article(String(e.params.type))}, not ${got}`);
    }
    case 'enum': {
      const allowed = (e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return here(`Should be ${described ?? `one of ${allowed}`}; got ${shown}`);
    }
    case 'minimum':
      return here(`Should be greater than or equal to ${String(e.params.limit)}; got ${shown}`);
    case 'maximum':
      return here(`Should be less than or equal to ${String(e.params.limit)}; got ${shown}`);
    case 'maxItems':
      return here(`Should not have more than ${String(e.params.limit)} items; has ${(e.data as unknown[]).length}`);
    default:
      return here(`Should be ${described ?? 'valid'}`);
  }
}

/**
 * Parses and validates dashboard JSON text as CloudWatch's PutDashboard does. Never throws anything but
 * {@link DashboardValidationError}, whose `validationMessages` list every problem (`dataPath` is a JSON pointer).
 *
 * @example
 * parseDashboard('{"widgets":[{"type":"text","properties":{"markdown":"# Hi"}}]}').widgets[0].width; // 6
 */
export function parseDashboard(text: string): DashboardModel {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    throw new DashboardValidationError([{ dataPath: '', message: `Invalid JSON: ${parsed.problem.message}` }]);
  }
  const deep = tooDeep(parsed.value);
  if (deep !== null) {
    throw new DashboardValidationError([
      { dataPath: deep, message: `Nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (the dashboard itself is level 1)` },
    ]);
  }
  const errors = validate(parsed.value).errors ?? [];
  // A value of the wrong type is said once: its bounds say nothing more.
  const mistyped = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const messages = errors.flatMap((e) => (e.keyword !== 'type' && mistyped.has(e.instancePath) ? [] : (messageOf(e) ?? [])));
  // What the schema cannot say, of whatever has the schema's shape: times, and markdown's length.
  const root = isRecord(parsed.value) ? parsed.value : {};
  const stringOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  messages.push(...timeProblems(stringOf(root.start), stringOf(root.end)));
  (Array.isArray(root.widgets) ? root.widgets : []).forEach((w: unknown, i) => {
    const markdown = isRecord(w) && w.type === 'text' && isRecord(w.properties) ? stringOf(w.properties.markdown) : null;
    const tooLong = markdown === null ? null : markdownLengthProblem(markdown);
    if (tooLong !== null) messages.push({ dataPath: `/widgets/${i}/properties/markdown`, message: tooLong });
  });
  if (messages.length > 0) throw new DashboardValidationError(messages.sort(byField));
  const widgets = (root.widgets as Array<Record<string, unknown>>).map(modelOf);
  return {
    widgets,
    start: stringOf(root.start),
    end: stringOf(root.end),
    periodOverride: (root.periodOverride as DashboardModel['periodOverride'] | undefined) ?? null,
  };
}

const FIELD_ORDER = ['start', 'end', 'periodOverride', 'widgets'];
/** Messages in the order of the dashboard's fields, then of its widgets (the top's missing "widgets" among them). */
function byField(a: ValidationMessage, b: ValidationMessage): number {
  const rank = (m: ValidationMessage): [number, number] => {
    const [, field = 'widgets', index = '-1'] = m.dataPath.split('/');
    return [FIELD_ORDER.indexOf(field), Number(index)];
  };
  const [fa, ia] = rank(a);
  const [fb, ib] = rank(b);
  return fa - fb || ia - ib;
}

function timeProblems(start: string | null, end: string | null): ValidationMessage[] {
  const out: ValidationMessage[] = [];
  if (start !== null && parseRelative(start) === null && parseIsoDateTime(start) === null) {
    out.push({
      dataPath: '/start',
      message: `Should be a relative time such as "-PT3H", "-P7D" or "-P3M", or an ISO 8601 date-time such as "2024-05-01T12:00:00Z"; got ${JSON.stringify(start)}`,
    });
  }
  if (end === null) return out;
  const e = parseIsoDateTime(end);
  if (e === null)
    out.push({ dataPath: '/end', message: `Should be an ISO 8601 date-time such as "2024-05-01T15:00:00Z"; got ${JSON.stringify(end)}` });
  if (start === null) out.push({ dataPath: '/end', message: 'Should be used together with "start"' });
  const s = start === null ? null : parseIsoDateTime(start);
  if (s !== null && e !== null && e <= s) out.push({ dataPath: '/end', message: `Should be after "start" (${start}); got ${end}` });
  return out;
}

/** A widget that passed the schema, with its defaults. */
function modelOf(w: Record<string, unknown>, index: number): WidgetModel {
  const type = w.type as WidgetType;
  const properties = w.properties as Record<string, unknown>;
  const custom = type === 'custom';
  const updateOn = properties.updateOn as Partial<UpdateOn> | undefined;
  return {
    index,
    widgetId: `widget-${index}`,
    type,
    x: (w.x as number | undefined) ?? null,
    y: (w.y as number | undefined) ?? null,
    width: (w.width as number | undefined) ?? 6,
    height: (w.height as number | undefined) ?? 6,
    properties,
    title: (properties.title as string | undefined) ?? null,
    endpoint: custom ? (properties.endpoint as string) : null,
    params: custom ? properties.params : undefined,
    updateOn: !custom
      ? null
      : updateOn === undefined
        ? { refresh: true, resize: true, timeRange: true }
        : { refresh: updateOn.refresh ?? false, resize: updateOn.resize ?? false, timeRange: updateOn.timeRange ?? false },
  };
}
