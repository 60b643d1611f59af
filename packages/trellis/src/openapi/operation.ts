import { multipartLimits, statusTitle } from '../index.js';
import type { BodyFormat, BodySettings, DescribeSettings, DescribedResponse, RouteInfo, ServiceResolver } from '../index.js';
import { SchemaComponents, placeSchema, standardOf, toJsonSchema } from './json-schema.js';
import type { PathTemplate } from './paths.js';
import { PROBLEM_JSON, problemResponseObject } from './problems.js';
import { describeLimit, routeLimits } from './rate-limits.js';
import type { JsonSchemaObject, OpenApiOptions, SchemaPart } from './types.js';

/** What every operation of one document shares. */
export interface DocumentContext {
  readonly options: OpenApiOptions;
  /** Where a failing `jsonSchema` converter is written: the app's services, when the document has them. */
  readonly log: ServiceResolver | undefined;
  readonly schemas: SchemaComponents;
  /** The `$ref` of the shared `Problem` schema. */
  readonly problemRef: string;
  /** The names of the app's security schemes. */
  readonly securityNames: readonly string[];
  /** The rate-limit header fields the app writes (their names in `components.headers`). */
  readonly rateLimitHeaders: readonly string[];
  /** The `components.headers` entries operations referred to. */
  readonly usedHeaders: Set<string>;
}

/** The values a route's Validate annotation holds (read loosely: only the parts present matter here). */
interface ValidateValue {
  readonly body?: object;
  readonly query?: object;
  readonly params?: object;
  readonly headers?: object;
  readonly cookies?: object;
  readonly fieldStatus?: number;
}

/** A route's annotation values of one kind, matched by name (an app made with another copy of the package reads the same). */
const valuesOf = <T>(route: RouteInfo, kind: string): T[] => route.annotations.filter((a) => a.kind.name === kind).map((a) => a.value as T);

const pascal = (text: string) =>
  text.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
const code = (c: string) => `\`${c}\``;
const list = (items: readonly string[]) => items.map(code).join(', ');
const DEFAULT_FORMATS: readonly BodyFormat[] = ['json', 'form', 'text'];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
// Header parameters OpenAPI describes elsewhere (the request body, the security schemes).
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** A schema of a route converted and placed in the document (definitions hoisted, named after the operation). */
function schemaFor(ctx: DocumentContext, route: RouteInfo, operationId: string, part: SchemaPart, schema: object): JsonSchemaObject {
  const converted = toJsonSchema(schema, { route, part, vendor: undefined }, ctx.options.jsonSchema, ctx.log);
  return placeSchema(converted, `${pascal(operationId)}${pascal(part)}`, ctx.schemas);
}

/** Whether a request must send a body for the schema to accept it (a schema that accepts nothing makes it optional). */
function bodyRequired(schema: object | undefined): boolean {
  if (schema === undefined) return false;
  try {
    const result = (standardOf(schema)?.validate as ((v: unknown) => unknown) | undefined)?.(undefined);
    if (result === undefined || result === null || typeof (result as PromiseLike<unknown>).then === 'function') return true;
    return Array.isArray((result as { issues?: unknown }).issues);
  } catch {
    return true;
  }
}

/** The members of an object schema as parameters of one location; undefined when the schema is not a plain object schema. */
function memberParameters(schema: JsonSchemaObject, location: 'query' | 'header' | 'cookie'): Record<string, unknown>[] | undefined {
  const properties = schema.properties;
  if (schema.$ref !== undefined || properties === null || typeof properties !== 'object' || Array.isArray(properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]).map(String) : []);
  return Object.entries(properties as Record<string, unknown>)
    .filter(([name]) => location !== 'header' || !RESERVED_HEADERS.has(name.toLowerCase()))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, member]) => {
      const memberSchema = member !== null && typeof member === 'object' ? (member as JsonSchemaObject) : {};
      // The member's description describes the parameter.
      const { description, ...schema } = memberSchema;
      const text = typeof description === 'string' ? description : undefined;
      return {
        name,
        in: location,
        ...(text ? { description: text } : {}),
        required: required.has(name),
        schema: text ? schema : memberSchema,
      };
    });
}

function pathParameters(
  ctx: DocumentContext,
  route: RouteInfo,
  operationId: string,
  path: PathTemplate,
  validate: ValidateValue | undefined,
  describe: DescribeSettings | undefined,
) {
  const validated = validate?.params ? schemaFor(ctx, route, operationId, 'params', validate.params) : undefined;
  const members =
    validated && typeof validated.properties === 'object' && validated.properties !== null
      ? (validated.properties as Record<string, JsonSchemaObject>)
      : {};
  return path.params.map((param) => {
    const own = Object.hasOwn(members, param.name) ? members[param.name] : undefined;
    const schema = own ?? { type: 'string', ...(param.pattern === undefined ? {} : { pattern: param.pattern }) };
    const description = describe?.params?.[param.name] ?? (param.rest ? 'The rest of the path; it may hold `/`.' : undefined);
    return { name: param.name, in: 'path', ...(description ? { description } : {}), required: true, schema };
  });
}

function queryParameters(
  ctx: DocumentContext,
  route: RouteInfo,
  operationId: string,
  validate: ValidateValue | undefined,
): Record<string, unknown>[] {
  if (!validate?.query) return [];
  const schema = schemaFor(ctx, route, operationId, 'query', validate.query);
  // A schema that is not an object of members describes the whole query string as one object.
  return (
    memberParameters(schema, 'query') ?? [
      {
        name: 'query',
        in: 'query',
        description: 'The query string as one object of fields.',
        required: false,
        style: 'form',
        explode: true,
        schema,
      },
    ]
  );
}

function headerAndCookieParameters(
  ctx: DocumentContext,
  route: RouteInfo,
  operationId: string,
  validate: ValidateValue | undefined,
): Record<string, unknown>[] {
  const headers = validate?.headers && memberParameters(schemaFor(ctx, route, operationId, 'headers', validate.headers), 'header');
  const cookies = validate?.cookies && memberParameters(schemaFor(ctx, route, operationId, 'cookies', validate.cookies), 'cookie');
  return [...(headers || []), ...(cookies || [])];
}

const FORM_FIELDS = { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } };
const BINARY = { type: 'string', format: 'binary' };

/**
 * A multipart body's schema: its fields (the body schema, or any text fields) with its files as binary parts —
 * in the fields the route names, else in any.
 */
function multipartSchema(fields: JsonSchemaObject | undefined, fileFields: readonly string[] | undefined): JsonSchemaObject {
  const file = { ...BINARY, description: 'A file; the part may be repeated.' };
  if (fileFields === undefined) {
    const any = { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, BINARY] } };
    return fields === undefined ? any : { allOf: [fields, any] };
  }
  const files = Object.fromEntries(fileFields.map((name) => [name, file]));
  if (fields === undefined) return { type: 'object', properties: files, additionalProperties: FORM_FIELDS.additionalProperties };
  const props = fields.properties;
  // An object schema gets the file parts beside its own; any other (a reference, a union) is joined with them.
  if (fields.type === 'object' && props !== null && typeof props === 'object' && fields.$ref === undefined)
    return { ...fields, properties: { ...props, ...files } };
  return { allOf: [fields, { type: 'object', properties: files }] };
}

/** What the route takes as a body, by media type; undefined when it takes none. */
function requestBody(
  ctx: DocumentContext,
  route: RouteInfo,
  operationId: string,
  body: BodySettings | undefined,
  validate: ValidateValue | undefined,
) {
  if (body === undefined && validate?.body === undefined && !BODY_METHODS.has(route.method)) return undefined;
  const schema = validate?.body ? schemaFor(ctx, route, operationId, 'body', validate.body) : undefined;
  const content: Record<string, { schema: JsonSchemaObject }> = {};
  for (const format of body?.formats ?? DEFAULT_FORMATS) {
    if (format === 'json') content['application/json'] = { schema: schema ?? {} };
    else if (format === 'form') content['application/x-www-form-urlencoded'] = { schema: schema ?? FORM_FIELDS };
    else if (format === 'multipart') content['multipart/form-data'] = { schema: multipartSchema(schema, body?.fileFields) };
    else if (format === 'text') content['text/*'] = { schema: schema ?? { type: 'string' } };
    else for (const type of body?.types ?? ['*/*']) content[type] = { schema: BINARY };
  }
  const limit = body?.limit === undefined ? "the app's body limit" : `${body.limit} bytes`;
  const streamed = body?.formats.includes('stream') ? ' The handler reads it as it arrives.' : '';
  return {
    description: `At most ${limit} (413 past it).${streamed}`,
    required: bodyRequired(validate?.body),
    content,
    ...(body?.limit === undefined ? {} : { 'x-trellis-body-limit': body.limit }),
  };
}

const headerRefs = (ctx: DocumentContext, names: readonly string[]) =>
  Object.fromEntries(
    names.map((name) => {
      ctx.usedHeaders.add(name);
      return [name, { $ref: `#/components/headers/${name}` }];
    }),
  );

/** A response the handler's `Describe` gives. */
function describedResponse(
  ctx: DocumentContext,
  route: RouteInfo,
  operationId: string,
  status: number,
  given: string | DescribedResponse,
): Record<string, unknown> {
  const entry: DescribedResponse = typeof given === 'string' ? { description: given } : given;
  const description = entry.description ?? statusTitle(status);
  const headers = Object.fromEntries(
    Object.entries(entry.headers ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, text]) => [name, { description: text, schema: { type: 'string' } }]),
  );
  let content: Record<string, unknown> | undefined;
  if (entry.schema !== undefined) {
    const schema = schemaFor(ctx, route, operationId, 'response', entry.schema);
    content = { [entry.contentType ?? 'application/json']: { schema: status === 204 ? {} : schema } };
  } else if (entry.contentType !== undefined) content = { [entry.contentType]: {} };
  else if (status >= 400) content = { [PROBLEM_JSON]: { schema: { $ref: ctx.problemRef } } };
  return {
    description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(content && status !== 204 && status !== 304 ? { content } : {}),
  };
}

/** The responses: the handler's own (`Describe`), the framework's failures that can happen on this route, and `default`. */
function responses(ctx: DocumentContext, route: RouteInfo, operationId: string, facts: RouteFacts): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [status, given] of Object.entries(facts.describe?.responses ?? {}))
    out[status] = describedResponse(ctx, route, operationId, Number(status), given);
  if (!Object.keys(out).some((s) => s.startsWith('2'))) out['2XX'] = { description: 'Success' };
  const limited = facts.limits.length > 0;
  if (limited) {
    for (const [status, response] of Object.entries(out)) {
      if (status.startsWith('2'))
        out[status] = { ...response, headers: { ...(response.headers as object | undefined), ...headerRefs(ctx, ctx.rateLimitHeaders) } };
    }
  }
  const failure = (status: number, description: string, headers?: Record<string, unknown>) => {
    if (out[status] === undefined) out[status] = problemResponseObject(description, ctx.problemRef, headers);
  };
  const bad: string[] = [];
  if (facts.validates) bad.push(`${code('TRELLIS_VALIDATION_FAILED')}: the request does not fit its schema (\`issues\`, \`field\`)`);
  if (facts.formats.includes('json')) bad.push(`${code('TRELLIS_INVALID_JSON')}: the body is not JSON`);
  if (facts.formats.some((f) => f === 'json' || f === 'form' || f === 'text'))
    bad.push(`${code('TRELLIS_INVALID_UTF8')}: the body is not UTF-8`);
  if (facts.formats.includes('multipart'))
    bad.push(
      `${code('TRELLIS_INVALID_MULTIPART')}: the body is not multipart as its type says${facts.body?.fileFields ? ', or has a file in a field not named for files' : ''}`,
    );
  if (bad.length > 0) failure(400, `${bad.join('; ')}.`);
  if (facts.authenticated) {
    const schemes =
      ctx.securityNames.length > 0
        ? ` (\`WWW-Authenticate\` names ${list(ctx.securityNames)})`
        : ' (no authenticator is registered, so every call is refused)';
    failure(
      401,
      `${code('TRELLIS_UNAUTHENTICATED')}: no credentials were sent${schemes}; ${code('TRELLIS_INVALID_CREDENTIALS')}: the credentials were refused.`,
      { 'WWW-Authenticate': { description: 'The schemes the app takes.', schema: { type: 'string' } } },
    );
    if (facts.grants.length > 0)
      failure(403, `${code('TRELLIS_MISSING_GRANT')}: the caller lacks one of the grants ${list(facts.grants)} (\`missingGrants\`).`);
  } else if (ctx.securityNames.length > 0) {
    failure(401, `${code('TRELLIS_INVALID_CREDENTIALS')}: credentials were sent and refused (none are needed here).`, {
      'WWW-Authenticate': { description: 'The scheme that refused them.', schema: { type: 'string' } },
    });
  }
  if (facts.takesBody) {
    failure(
      413,
      `${code('TRELLIS_BODY_TOO_LARGE')}: the body is larger than ${facts.limit === undefined ? "the app's body limit" : `${facts.limit} bytes`} (\`limit\`).${facts.formats.includes('multipart') ? ` ${describeMultipartLimits(facts.body)}` : ''}`,
    );
    failure(415, `${code('TRELLIS_UNSUPPORTED_MEDIA_TYPE')}: the route does not take a body of that type (\`supported\`).`);
  }
  if (facts.fieldStatus === 422)
    failure(422, `${code('TRELLIS_VALIDATION_FAILED')}: a field the first issue names cannot be applied (\`field\`, \`issues\`).`);
  if (limited) {
    const why = facts.limits.map(describeLimit).join(' ');
    failure(
      429,
      `${code('TRELLIS_RATE_LIMITED')}: a rate limit refused the request (\`limit\` names it, \`retryAfter\`). ${why}`,
      headerRefs(ctx, ['Retry-After', ...ctx.rateLimitHeaders]),
    );
  }
  if (facts.conditional) {
    const read = route.method === 'GET' || route.method === 'HEAD';
    if (read) {
      const etag = { ETag: { description: 'The entity tag of the answer, for If-None-Match and If-Match.', schema: { type: 'string' } } };
      for (const [status, response] of Object.entries(out))
        if (status.startsWith('2')) out[status] = { ...response, headers: { ...(response.headers as object | undefined), ...etag } };
      out['304'] ??= {
        description: "Not Modified: the client's copy is current (If-None-Match, If-Modified-Since); no body.",
        headers: etag,
      };
    }
    failure(
      412,
      `${code('TRELLIS_PRECONDITION_FAILED')}: the resource does not match the request's ${read ? 'If-Match or If-Unmodified-Since' : 'If-Match, If-Unmodified-Since or If-None-Match'}.`,
    );
  }
  out.default = problemResponseObject('Any other failure, as a problem document: 404, 405, 500, ….', ctx.problemRef);
  return Object.fromEntries(
    Object.entries(out).sort(([a], [b]) => (a === 'default' ? 1 : b === 'default' ? -1 : a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** The 413 a multipart body's limits give. */
function describeMultipartLimits(body: BodySettings | undefined): string {
  const { files, fields, fieldSize, fileSize, parts } = multipartLimits(body);
  const each = [
    `files: ${files}`,
    `fields: ${fields}`,
    `fieldSize: ${fieldSize} bytes`,
    ...(fileSize === undefined ? [] : [`fileSize: ${fileSize} bytes`]),
    ...(parts === undefined ? [] : [`parts: ${parts}`]),
  ];
  return `${code('TRELLIS_MULTIPART_LIMIT')}: a multipart body passes one of its limits (\`limit\` names it, \`max\`): ${each.join(', ')}.`;
}

/** What the document needs to know of one route. */
interface RouteFacts {
  readonly describe: DescribeSettings | undefined;
  readonly validate: ValidateValue | undefined;
  readonly body: BodySettings | undefined;
  readonly validates: boolean;
  readonly fieldStatus: number | undefined;
  readonly takesBody: boolean;
  readonly formats: readonly BodyFormat[];
  readonly limit: number | undefined;
  readonly authenticated: boolean;
  readonly grants: readonly string[];
  readonly limits: ReturnType<typeof routeLimits>;
  /** The route has the `ETag` annotation: conditional requests are answered 304 and 412. */
  readonly conditional: boolean;
}

/** A `Describe` value; an older copy of the package keeps a summary alone. */
const describedBy = (value: DescribeSettings | string | undefined): DescribeSettings | undefined =>
  typeof value === 'string' ? { summary: value } : value;

/** Reads a route's annotations once. */
export function routeFacts(route: RouteInfo): RouteFacts {
  const validate = valuesOf<ValidateValue>(route, 'Validate')[0];
  const body = valuesOf<BodySettings>(route, 'Body')[0];
  const grants = [...new Set(valuesOf<readonly string[]>(route, 'Authorize').flat())].sort();
  const authenticated = valuesOf(route, 'Authorize').length > 0 && valuesOf(route, 'AllowAnonymous').length === 0;
  const takesBody = body !== undefined || validate?.body !== undefined || BODY_METHODS.has(route.method);
  return {
    conditional: valuesOf(route, 'ETag').length > 0,
    describe: describedBy(valuesOf<DescribeSettings | string>(route, 'Describe')[0]),
    validate,
    body,
    validates:
      validate !== undefined &&
      ['body', 'query', 'params', 'headers', 'cookies'].some((p) => (validate as Record<string, unknown>)[p] !== undefined),
    fieldStatus: validate?.fieldStatus,
    takesBody,
    formats: takesBody ? (body?.formats ?? DEFAULT_FORMATS) : [],
    limit: body?.limit,
    authenticated,
    grants: authenticated ? grants : [],
    limits: routeLimits(route),
  };
}

/** The operation object of one route at one of its path templates. */
export function operation(
  ctx: DocumentContext,
  route: RouteInfo,
  path: PathTemplate,
  operationId: string,
  facts: RouteFacts,
): Record<string, unknown> {
  const { describe, validate, body } = facts;
  const parameters = [
    ...pathParameters(ctx, route, operationId, path, validate, describe),
    ...queryParameters(ctx, route, operationId, validate),
    ...headerAndCookieParameters(ctx, route, operationId, validate),
  ];
  const request = facts.takesBody ? requestBody(ctx, route, operationId, body, validate) : undefined;
  const security =
    facts.authenticated && ctx.securityNames.length > 0 ? ctx.securityNames.map((name) => ({ [name]: facts.grants })) : undefined;
  return {
    ...(describe?.tags?.length ? { tags: describe.tags } : {}),
    ...(describe?.summary ? { summary: describe.summary } : {}),
    ...(describe?.description ? { description: describe.description } : {}),
    operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(request ? { requestBody: request } : {}),
    responses: responses(ctx, route, operationId, facts),
    ...(security ? { security } : {}),
    ...(describe?.deprecated ? { deprecated: true } : {}),
    ...(facts.authenticated ? { 'x-trellis-grants': facts.grants } : {}),
    ...(facts.limits.length > 0 ? { 'x-trellis-rate-limits': facts.limits } : {}),
  };
}
