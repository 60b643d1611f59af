import type { RouteInfo, ServiceResolver } from '../index.js';
import { aBoolean, callUserCodeSync, type UserHook } from '../pipeline/index.js';
import { SchemaComponents } from './json-schema.js';
import { operation, routeFacts } from './operation.js';
import type { DocumentContext } from './operation.js';
import { operationIdFor, pathTemplates } from './paths.js';
import type { PathTemplate } from './paths.js';
import { problemSchema } from './problems.js';
import { RETRY_AFTER, rateLimitHeaderFields } from './rate-limits.js';
import { securitySchemes } from './security.js';
import type { OpenApiDocument, OpenApiOptions } from './types.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_OPENAPI_OPTIONS', message);

/** What the document reads of an app: its routes and, when it has them, its services (for the authenticators). */
export interface DocumentedApp {
  readonly routes: readonly RouteInfo[];
  readonly provider?: ServiceResolver;
}

const INCLUDE: UserHook<boolean> = {
  where: 'OpenApiOptions.include',
  instead: 'the route was shown',
  accept: aBoolean,
  fallback: () => true,
};

/** OpenAPI's order of the operations of one path. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function checkOptions(options: OpenApiOptions): void {
  const info = options?.info;
  for (const field of ['title', 'version'] as const) {
    if (typeof info?.[field] !== 'string' || info[field].trim() === '') {
      throw invalid(
        `createOpenApiDocument needs info.${field}, a non-empty string (info: { title: 'Orders API', version: '1.0.0' }); got ${JSON.stringify(info?.[field])}.`,
      );
    }
  }
  for (const server of options.servers ?? []) {
    if (typeof server?.url !== 'string' || server.url === '')
      throw invalid(`createOpenApiDocument: every server needs a url, got ${JSON.stringify(server)}.`);
  }
  if (options.jsonSchema !== undefined && typeof options.jsonSchema !== 'function')
    throw invalid('createOpenApiDocument: jsonSchema must be a function (schema, context) => JSON Schema | undefined.');
  if (options.include !== undefined && typeof options.include !== 'function')
    throw invalid('createOpenApiDocument: include must be a function (route) => boolean.');
}

interface Planned {
  readonly route: RouteInfo;
  readonly path: PathTemplate;
  readonly method: string;
  readonly wanted: string;
  /** The id was given with `Describe`: it must be unique. */
  readonly explicit: boolean;
}

/** Every documented (route, path template), sorted by path and method, with a unique operation id each. */
function plan(routes: readonly RouteInfo[]): Array<Planned & { operationId: string; facts: ReturnType<typeof routeFacts> }> {
  const planned: Array<Planned & { facts: ReturnType<typeof routeFacts> }> = [];
  for (const route of routes) {
    const facts = routeFacts(route);
    pathTemplates(route.path).forEach((path, i) => {
      const given = i === 0 ? facts.describe?.operationId : undefined;
      planned.push({
        route,
        path,
        method: route.method.toLowerCase(),
        wanted: given ?? operationIdFor(route.method, path),
        explicit: given !== undefined,
        facts,
      });
    });
  }
  planned.sort(
    (a, b) =>
      byText(a.path.template, b.path.template) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method) || byText(a.route.id, b.route.id),
  );
  const owners = new Map<string, RouteInfo>();
  for (const p of planned.filter((p) => p.explicit)) {
    const owner = owners.get(p.wanted);
    if (owner)
      throw invalid(
        `Two routes have the operation id "${p.wanted}" (${owner.id} and ${p.route.id}); give one of them another with Describe({ operationId }).`,
      );
    owners.set(p.wanted, p.route);
  }
  const taken = new Set(owners.keys());
  return planned.map((p) => {
    let operationId = p.wanted;
    if (!p.explicit) {
      for (let n = 2; taken.has(operationId); n++) operationId = `${p.wanted}_${n}`;
      taken.add(operationId);
    }
    return { ...p, operationId };
  });
}

/**
 * Builds the routes' document. `services` are the app's (for its authenticators and rate-limit headers).
 * @internal
 */
export function buildDocument(
  allRoutes: readonly RouteInfo[],
  services: ServiceResolver | undefined,
  options: OpenApiOptions,
): OpenApiDocument {
  checkOptions(options);
  const include = options.include;
  const routes = include === undefined ? allRoutes : allRoutes.filter((r) => callUserCodeSync(services, INCLUDE, () => include(r), r.id));
  const schemas = new SchemaComponents();
  for (const [name, schema] of Object.entries(options.schemas ?? {}).sort(([a], [b]) => byText(a, b))) schemas.add(name, schema);
  const problem = Object.hasOwn(options.schemas ?? {}, 'Problem')
    ? 'Problem'
    : schemas.add('Problem', problemSchema(options.problemCodes, options.problemExtensions));
  const security = securitySchemes(services);
  const rateLimitFields = rateLimitHeaderFields(services);
  const ctx: DocumentContext = {
    options,
    log: services,
    schemas,
    problemRef: `#/components/schemas/${problem}`,
    securityNames: [...security.keys()],
    rateLimitHeaders: Object.keys(rateLimitFields),
    usedHeaders: new Set(),
  };
  const paths = new Map<string, Record<string, unknown>>();
  const tags = new Set<string>();
  for (const p of plan(routes)) {
    const item = paths.get(p.path.template) ?? {};
    if (item[p.method] !== undefined) continue; // two declarations the router would not tell apart: the first stays
    item[p.method] = operation(ctx, p.route, p.path, p.operationId, p.facts);
    for (const tag of p.facts.describe?.tags ?? []) tags.add(tag);
    paths.set(p.path.template, item);
  }
  const headerFields: Record<string, unknown> = { ...RETRY_AFTER, ...rateLimitFields };
  const headers = Object.fromEntries([...ctx.usedHeaders].sort(byText).map((name) => [name, headerFields[name]]));
  return {
    openapi: '3.1.0',
    info: JSON.parse(JSON.stringify(options.info)) as OpenApiDocument['info'],
    ...(options.servers?.length ? { servers: options.servers.map((s) => ({ ...s })) } : {}),
    ...(tags.size > 0 ? { tags: [...tags].sort(byText).map((name) => ({ name })) } : {}),
    paths: Object.fromEntries(paths),
    components: {
      schemas: schemas.sorted(),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(security.size > 0 ? { securitySchemes: Object.fromEntries([...security].sort(([a], [b]) => byText(a, b))) } : {}),
    },
  };
}

/**
 * The OpenAPI 3.1 document of an app, made from its routes: every route's method, path, parameters, request body
 * (from `Validate` and `Body`), responses (its own, from `Describe`, and the framework's failures that can happen
 * on it: 400, 401, 403, 413, 415, 422, 429 with the rate-limit headers), and security (from the registered
 * authenticators and `Authorize`). The same app always gives the same document, byte for byte once stringified:
 * commit it and diff it.
 *
 * Schemas are converted to JSON Schema by what they offer themselves (zod 4 and arktype implement the Standard JSON
 * Schema interface); give `jsonSchema` for other libraries. One that cannot be converted shows as `{}` with an
 * `x-trellis-unconverted` note.
 *
 * @example
 * import { createOpenApiDocument } from 'trellis/openapi';
 * const doc = createOpenApiDocument(app, { info: { title: 'Orders API', version: '1.0.0' }, servers: [{ url: 'https://api.example.com' }] });
 * await writeFile('openapi.json', `${JSON.stringify(doc, null, 2)}\n`);
 */
export function createOpenApiDocument(app: DocumentedApp, options: OpenApiOptions): OpenApiDocument {
  if (app === null || typeof app !== 'object' || !Array.isArray(app.routes)) {
    throw invalid('createOpenApiDocument takes a Trellis app (createApp()) and options; got something without routes.');
  }
  return buildDocument(app.routes, app.provider, options);
}
