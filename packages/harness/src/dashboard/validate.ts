import { DashboardValidationError, type ValidationMessage } from './errors.js';
import { MAX_JSON_DEPTH, tooDeep } from './json-depth.js';
import { isRecord, parseJsonText } from './functions/index.js';
import { markdownLengthProblem } from './markdown.js';
import { WIDGET_TYPES, type DashboardModel, type UpdateOn, type WidgetModel, type WidgetType } from './model.js';
import { parseIsoDateTime, parseRelative } from './time-range.js';

const MAX_WIDGETS = 500;
const UPDATE_ON_KEYS = ['refresh', 'resize', 'timeRange'] as const;

type Obj = Record<string, unknown>;
const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

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
  const messages: ValidationMessage[] = [];
  const model = validateDashboard(parsed.value, messages);
  if (messages.length > 0 || !model) throw new DashboardValidationError(messages);
  return model;
}

function validateDashboard(root: unknown, out: ValidationMessage[]): DashboardModel | null {
  if (!isRecord(root)) {
    out.push({ dataPath: '', message: `Should be an object with a "widgets" array, not ${typeName(root)}` });
    return null;
  }
  const start = optionalString(root, 'start', '/start', out);
  const end = optionalString(root, 'end', '/end', out);
  if (start !== null && parseRelative(start) === null && parseIsoDateTime(start) === null) {
    out.push({
      dataPath: '/start',
      message: `Should be a relative time such as "-PT3H", "-P7D" or "-P3M", or an ISO 8601 date-time such as "2024-05-01T12:00:00Z"; got ${JSON.stringify(start)}`,
    });
  }
  if (end !== null) {
    if (parseIsoDateTime(end) === null) {
      out.push({ dataPath: '/end', message: `Should be an ISO 8601 date-time such as "2024-05-01T15:00:00Z"; got ${JSON.stringify(end)}` });
    }
    if (start === null) out.push({ dataPath: '/end', message: 'Should be used together with "start"' });
    const s = start === null ? null : parseIsoDateTime(start);
    const e = parseIsoDateTime(end);
    if (s !== null && e !== null && e <= s) out.push({ dataPath: '/end', message: `Should be after "start" (${start}); got ${end}` });
  }
  let periodOverride: DashboardModel['periodOverride'] = null;
  if (root.periodOverride !== undefined) {
    if (root.periodOverride === 'auto' || root.periodOverride === 'inherit') periodOverride = root.periodOverride;
    else out.push({ dataPath: '/periodOverride', message: `Should be "auto" or "inherit"; got ${JSON.stringify(root.periodOverride)}` });
  }
  const widgets: WidgetModel[] = [];
  if (root.widgets === undefined) {
    out.push({ dataPath: '', message: "Should have required property 'widgets'" });
  } else if (!Array.isArray(root.widgets)) {
    out.push({ dataPath: '/widgets', message: `Should be an array, not ${typeName(root.widgets)}` });
  } else if (root.widgets.length > MAX_WIDGETS) {
    out.push({ dataPath: '/widgets', message: `Should not have more than ${MAX_WIDGETS} items; has ${root.widgets.length}` });
  } else {
    root.widgets.forEach((w, i) => {
      const model = validateWidget(w, i, out);
      if (model) widgets.push(model);
    });
  }
  return { widgets, start, end, periodOverride };
}

function optionalString(o: Obj, key: string, path: string, out: ValidationMessage[]): string | null {
  const v = o[key];
  if (v === undefined) return null;
  if (typeof v !== 'string') {
    out.push({ dataPath: path, message: `Should be a string, not ${typeName(v)}` });
    return null;
  }
  return v;
}

function integerIn(
  o: Obj,
  key: string,
  path: string,
  min: number,
  max: number,
  fallback: number | null,
  out: ValidationMessage[],
): number | null {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    out.push({ dataPath: `${path}/${key}`, message: `Should be an integer, not ${typeName(v) === 'number' ? String(v) : typeName(v)}` });
    return fallback;
  }
  if (v < min) out.push({ dataPath: `${path}/${key}`, message: `Should be greater than or equal to ${min}; got ${v}` });
  else if (v > max) out.push({ dataPath: `${path}/${key}`, message: `Should be less than or equal to ${max}; got ${v}` });
  return v;
}

function validateWidget(w: unknown, index: number, out: ValidationMessage[]): WidgetModel | null {
  const path = `/widgets/${index}`;
  if (!isRecord(w)) {
    out.push({ dataPath: path, message: `Should be an object, not ${typeName(w)}` });
    return null;
  }
  const before = out.length;
  let type: WidgetType | null = null;
  if (w.type === undefined) out.push({ dataPath: path, message: "Should have required property 'type'" });
  else if (typeof w.type !== 'string' || !(WIDGET_TYPES as readonly string[]).includes(w.type)) {
    out.push({
      dataPath: `${path}/type`,
      message: `Should be one of ${WIDGET_TYPES.map((t) => `"${t}"`).join(', ')}; got ${JSON.stringify(w.type)}`,
    });
  } else type = w.type as WidgetType;
  const x = integerIn(w, 'x', path, 0, 23, null, out);
  const y = integerIn(w, 'y', path, 0, Number.MAX_SAFE_INTEGER, null, out);
  const width = integerIn(w, 'width', path, 1, 24, 6, out) ?? 6;
  const height = integerIn(w, 'height', path, 1, 1000, 6, out) ?? 6;
  let properties: Obj | null = null;
  if (w.properties === undefined) out.push({ dataPath: path, message: "Should have required property 'properties'" });
  else if (!isRecord(w.properties))
    out.push({ dataPath: `${path}/properties`, message: `Should be an object, not ${typeName(w.properties)}` });
  else properties = w.properties;
  if (!properties || !type) return null;
  const props = `${path}/properties`;
  const title = optionalString(properties, 'title', `${props}/title`, out);
  let endpoint: string | null = null;
  let updateOn: UpdateOn | null = null;
  if (type === 'custom') {
    if (properties.endpoint === undefined) out.push({ dataPath: props, message: "Should have required property 'endpoint'" });
    else if (typeof properties.endpoint !== 'string' || properties.endpoint.trim() === '') {
      out.push({ dataPath: `${props}/endpoint`, message: 'Should be a Lambda function ARN (or function name) as a non-empty string' });
    } else endpoint = properties.endpoint;
    updateOn = validateUpdateOn(properties.updateOn, `${props}/updateOn`, out);
  }
  if (type === 'text') {
    if (properties.markdown === undefined) out.push({ dataPath: props, message: "Should have required property 'markdown'" });
    else if (typeof properties.markdown !== 'string') {
      out.push({ dataPath: `${props}/markdown`, message: `Should be a string, not ${typeName(properties.markdown)}` });
    } else {
      const tooLong = markdownLengthProblem(properties.markdown);
      if (tooLong !== null) out.push({ dataPath: `${props}/markdown`, message: tooLong });
    }
  }
  if (out.length > before) return null;
  return {
    index,
    widgetId: `widget-${index}`,
    type,
    x,
    y,
    width,
    height,
    properties,
    title,
    endpoint,
    params: type === 'custom' ? properties.params : undefined,
    updateOn,
  };
}

function validateUpdateOn(v: unknown, path: string, out: ValidationMessage[]): UpdateOn {
  if (v === undefined) return { refresh: true, resize: true, timeRange: true };
  const result: UpdateOn = { refresh: false, resize: false, timeRange: false };
  if (!isRecord(v)) {
    out.push({ dataPath: path, message: `Should be an object with boolean "refresh", "resize", "timeRange", not ${typeName(v)}` });
    return result;
  }
  for (const key of Object.keys(v)) {
    const known = (UPDATE_ON_KEYS as readonly string[]).includes(key);
    if (!known) {
      out.push({ dataPath: `${path}/${escapePointer(key)}`, message: `Unknown property; allowed are ${UPDATE_ON_KEYS.join(', ')}` });
      continue;
    }
    const value = v[key];
    if (typeof value !== 'boolean') out.push({ dataPath: `${path}/${key}`, message: `Should be a boolean, not ${typeName(value)}` });
    else result[key as keyof UpdateOn] = value;
  }
  return result;
}
