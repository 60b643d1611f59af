import { annotation } from './annotation.js';
import type { AnnotationDecorator } from './annotation.js';
import type { AnnotationKind } from '../pipeline/index.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_ANNOTATION', message);

/** One response a handler gives, as its OpenAPI document shows it. */
export interface DescribedResponse {
  /** What the response means; default the status's reason phrase. */
  readonly description?: string;
  /**
   * The body's shape: a JSON Schema object (`{ type: 'object', … }`, `{ $ref: '#/components/schemas/Order' }`), or a
   * schema of a validation library that the document's converter turns into one (a zod schema as is).
   */
  readonly schema?: object;
  /** The body's media type; default `application/json` (`application/problem+json` for a 4xx or 5xx without a schema). */
  readonly contentType?: string;
  /** Response headers it carries: name → what the header says. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What `Describe` says of a handler. */
export interface DescribeSettings {
  /** A short summary of what the handler does. */
  readonly summary?: string;
  /** A longer description (CommonMark). */
  readonly description?: string;
  /** Groups the handler belongs to; class-level and method-level tags add up. */
  readonly tags?: readonly string[];
  /** The operation's id in the document; default one made from the method and path (`GET /orders/:id` → `getOrdersById`). */
  readonly operationId?: string;
  /** Marks the handler as on its way out. */
  readonly deprecated?: boolean;
  /** Path parameters: name → what it is. */
  readonly params?: Readonly<Record<string, string>>;
  /**
   * The responses the handler gives, by status: a description, or `{ description, schema, contentType, headers }`.
   * A 4xx or 5xx given by description alone is a problem document. Undocumented successes show as a generic `2XX`.
   */
  readonly responses?: Readonly<Record<number, string | DescribedResponse>>;
}

const FIELDS = ['summary', 'description', 'operationId', 'deprecated'] as const;

/** Merges the values of one level; two that set one field differently are an error, whatever their order. */
function mergeLevel(values: readonly DescribeSettings[], handler: string): DescribeSettings {
  const out: Record<string, unknown> = {};
  const tags = new Set<string>();
  const params: Record<string, string> = {};
  const responses: Record<number, string | DescribedResponse> = {};
  const clash = (what: string) =>
    usageError('TRELLIS_CONFLICTING_ANNOTATIONS', `${handler}: @Describe is applied more than once with different ${what}; keep one.`);
  for (const v of values) {
    for (const field of FIELDS) {
      if (v[field] === undefined) continue;
      if (out[field] !== undefined && out[field] !== v[field]) throw clash(`"${field}" values`);
      out[field] = v[field];
    }
    for (const t of v.tags ?? []) tags.add(t);
    for (const [name, text] of Object.entries(v.params ?? {})) {
      if (params[name] !== undefined && params[name] !== text) throw clash(`descriptions of the parameter "${name}"`);
      params[name] = text;
    }
    for (const [status, response] of Object.entries(v.responses ?? {})) {
      const key = Number(status);
      if (responses[key] !== undefined && responses[key] !== response) throw clash(`${status} responses`);
      responses[key] = response;
    }
  }
  if (tags.size > 0) out.tags = [...tags].sort();
  if (Object.keys(params).length > 0) out.params = params;
  if (Object.keys(responses).length > 0) out.responses = responses;
  return out;
}

export const DescribeKind: AnnotationKind<DescribeSettings> = {
  name: 'Describe',
  // One value per handler: method-level fields over class-level ones, tags of both levels.
  combine(classLevel, methodLevel, handler) {
    if (classLevel.length + methodLevel.length === 0) return [];
    const outer = mergeLevel(classLevel, handler);
    const inner = mergeLevel(methodLevel, handler);
    const tags = [...new Set([...(outer.tags ?? []), ...(inner.tags ?? [])])].sort();
    const merged: Record<string, unknown> = { ...outer, ...inner };
    if (tags.length > 0) merged.tags = tags;
    if (outer.params || inner.params) merged.params = { ...outer.params, ...inner.params };
    if (outer.responses || inner.responses) merged.responses = { ...outer.responses, ...inner.responses };
    return [Object.freeze(merged)];
  },
  sortKey: () => '',
};

const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/**
 * Says what a handler does: a summary (Markdown) alone, or with a description, tags, the operation id and the
 * responses it gives. The app's OpenAPI document (`createOpenApiDocument` from `trellis/openapi`) shows all of it; a
 * widget function's `describe` answer (`trellis/lambda`) shows the summary and description. On a class (or a
 * `group()`) it applies to every handler; a method's own fields win, and tags add up. It changes nothing about how
 * requests are handled.
 *
 * @example
 * @Describe({ tags: ['orders'] })
 * class Orders {
 *   @Describe({ summary: 'One order', params: { id: 'The order number' }, responses: { 200: { schema: orderJsonSchema }, 404: 'No such order' } })
 *   @Get('/orders/:id') show(ctx) { ... }
 * }
 * route('POST', '/orders', [Describe('Places an order.')], create); // the summary alone
 */
export function Describe(summaryOrSettings: string | DescribeSettings): AnnotationDecorator<DescribeSettings> {
  if (typeof summaryOrSettings === 'string') {
    if (!text(summaryOrSettings))
      throw invalid('@Describe takes a non-empty Markdown summary of the route, or { summary, description, tags, … }.');
    return annotation(DescribeKind, Object.freeze({ summary: summaryOrSettings.trim() }));
  }
  const settings = summaryOrSettings;
  if (settings === null || typeof settings !== 'object')
    throw invalid(`@Describe takes a summary, or { summary, description, tags, … }; got ${String(settings)}.`);
  const { summary, description, tags, operationId, deprecated, params, responses } = settings;
  for (const [name, value] of Object.entries({ summary, description, operationId })) {
    if (value !== undefined && !text(value))
      throw invalid(`@Describe: "${name}" must be a non-empty string, got ${JSON.stringify(value)}.`);
  }
  if (deprecated !== undefined && typeof deprecated !== 'boolean')
    throw invalid(`@Describe: "deprecated" must be true or false, got ${JSON.stringify(deprecated)}.`);
  if (tags !== undefined && (!Array.isArray(tags) || !tags.every(text)))
    throw invalid(`@Describe: "tags" must be a list of non-empty strings, got ${JSON.stringify(tags)}.`);
  for (const [name, value] of Object.entries(params ?? {})) {
    if (!text(value)) throw invalid(`@Describe: the parameter "${name}" needs a non-empty description, got ${JSON.stringify(value)}.`);
  }
  for (const [status, response] of Object.entries(responses ?? {})) {
    if (!/^[1-5][0-9][0-9]$/.test(status)) throw invalid(`@Describe: responses are keyed by status (100 to 599), got "${status}".`);
    if (typeof response === 'string' ? !text(response) : response === null || typeof response !== 'object') {
      throw invalid(`@Describe: the ${status} response must be a description or { description, schema, contentType, headers }.`);
    }
  }
  return annotation(DescribeKind, Object.freeze({ ...settings, ...(tags ? { tags: Object.freeze([...new Set(tags)].sort()) } : {}) }));
}
