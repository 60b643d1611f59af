// `describe` events: Markdown documentation generated from the app's routes, their summaries and schemas.
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { Describe, DescribeKind, Validate, type App, type DescribeSettings, type RouteInfo } from '../../index.js';
import { USER_CODE_FAILED, aBoolean, callUserCodeSync, failedMarker, type UserHook } from '../../pipeline/index.js';
import { RateLimitKind, type RateLimitSettings } from '../../ratelimit/index.js';

// The annotation is the core's: the same `Describe` gives the app's OpenAPI document its summaries.
export { Describe, DescribeKind };

/** Options of the generated documentation. */
export interface DescribeOptions {
  /** The heading; default `Widget routes`. */
  readonly title?: string;
  /** Markdown shown under the heading. */
  readonly introduction?: string;
  /**
   * Which routes to list; default every GET and POST route. It must answer at once with true or false: one
   * that throws or answers anything else (a promise included) is logged, and the route is listed by the default.
   */
  readonly include?: (route: RouteInfo) => boolean;
}

const INCLUDE: UserHook<boolean, typeof USER_CODE_FAILED> = {
  where: 'DescribeOptions.include',
  instead: 'the default decided (GET and POST routes are listed)',
  accept: aBoolean,
  fallback: failedMarker,
};

const listedByDefault = (route: RouteInfo): boolean => route.method === 'GET' || route.method === 'POST';

const ValidateKind = Validate({}).kind;

type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a Standard Schema, when its library offers one (zod does; others may not). */
function jsonSchemaOf(schema: StandardSchemaV1 | undefined): JsonSchema | null | undefined {
  if (!schema) return undefined;
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (!converter || typeof converter.input !== 'function') return null;
  try {
    return converter.input({ target: 'draft-2020-12' });
  } catch {
    return null;
  }
}

const cell = (value: string): string =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
  if (typeof schema.type === 'string') {
    if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null)
      return `array of ${typeOf(schema.items as JsonSchema)}`;
    return schema.type;
  }
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as JsonSchema[]).map(typeOf).join(' or ');
  }
  return 'any';
}

function parameterTable(json: JsonSchema): string[] {
  const properties = typeof json.properties === 'object' && json.properties !== null ? (json.properties as Record<string, JsonSchema>) : {};
  const names = Object.keys(properties);
  if (names.length === 0) return ['No parameters.'];
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  const lines = ['| Parameter | Type | Required | Description |', '|---|---|---|---|'];
  for (const name of names) {
    const p = properties[name]!;
    let description = typeof p.description === 'string' ? p.description : '';
    if ('default' in p) description = `${description}${description ? ' ' : ''}Default: \`${JSON.stringify(p.default)}\`.`;
    lines.push(`| \`${cell(name)}\` | ${cell(typeOf(p))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`);
  }
  return lines;
}

function parameters(route: RouteInfo): string[] {
  const schemas = route.annotations
    .filter((a) => a.kind === ValidateKind)
    .map((a) => a.value as { body?: StandardSchemaV1; query?: StandardSchemaV1 });
  const schema = schemas[0]?.body ?? schemas[0]?.query;
  const json = jsonSchemaOf(schema);
  if (json === undefined) return ['No declared parameters.'];
  if (json === null) return [`Parameters are checked by a ${schema!['~standard'].vendor} schema that does not describe itself.`];
  return parameterTable(json);
}

function limits(route: RouteInfo): string[] {
  const settings = route.annotations.filter((a) => a.kind === RateLimitKind).map((a) => a.value as RateLimitSettings);
  return settings.map((s) => `Rate limit \`${s.name}\`: ${s.permitLimit} per ${s.windowSeconds} s.`);
}

/**
 * The Markdown a widget function answers `describe` with: how to pick a route, then each route with its
 * summary, parameters and limits.
 *
 * @example
 * describeWidgetRoutes(app, 'route', { title: 'Orders widget' });
 */
export function describeWidgetRoutes(app: App, routeParam: string, options: DescribeOptions = {}): string {
  const given = options.include;
  const include =
    given === undefined
      ? listedByDefault
      : (route: RouteInfo) => {
          const listed = callUserCodeSync(app.provider, INCLUDE, () => given(route), route.id);
          return listed === USER_CODE_FAILED ? listedByDefault(route) : listed;
        };
  const routes = app.routes.filter(include);
  const out = [`## ${options.title ?? 'Widget routes'}`, ''];
  if (options.introduction) out.push(options.introduction.trim(), '');
  out.push(
    `Pick a view with the \`${routeParam}\` parameter (default \`/\`) in the widget's params or an action's params. ` +
      "Values come from the widget's params, then the call's own params, then the widget's form fields; a later source wins.",
    '',
  );
  if (routes.length === 0) out.push('This function has no widget routes.');
  for (const route of routes) {
    const described = route.annotations.find((a) => a.kind === DescribeKind)?.value as DescribeSettings | undefined;
    out.push(`### \`${route.path}\`${route.method === 'POST' ? ' (POST)' : ''}`, '');
    if (described?.summary) out.push(described.summary, '');
    if (described?.description) out.push(described.description, '');
    out.push(...parameters(route), '');
    const limited = limits(route);
    if (limited.length) out.push(...limited, '');
  }
  return out.join('\n').trimEnd() + '\n';
}
