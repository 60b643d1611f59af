/**
 * Every function-typed member of trellis's public declarations (test/support/function-typed-options.ts), sorted
 * into two tables: the hooks — code of the user's that Trellis calls on its own — each with a scenario that
 * installs a given implementation and sends requests; and the members that are not hooks, each with the
 * reason. test/e2e/user-code-guard.test.ts holds the declarations to these tables and runs every scenario.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import {
  ApiKeyAuthenticator,
  Authenticator,
  Cache,
  createApp,
  Logger,
  ResponseCacheStore,
  route,
  Validate,
  type AnnotationDecorator,
  type App,
} from 'trellis';
import { lambdaHandler, WidgetRateLimitPartitioner } from 'trellis/lambda';
// Names the packages keep to themselves, from the modules that hold them.
import { MemoryResponseCache, type InjectRequest } from '../../packages/trellis/src/index.js';
import { widgetHandler } from '../../packages/trellis/src/lambda/index.js';
import { openApiRoute } from 'trellis/openapi';
import {
  FallbackRateLimitStore,
  RateLimit,
  RateLimitConfiguration,
  RateLimitObserver,
  RateLimitPartitioner,
  RateLimitPolicyResolver,
  RateLimitStore,
  rateLimitMetrics,
} from 'trellis/ratelimit';
import { httpEvent } from './lambda-events.js';

/** An implementation of a hook, as a scenario installs it (it breaks in one of three ways). */
export type Implementation = (...args: any[]) => any;

export interface Scenario {
  /** The name the log line gives the hook, when it is not the table's. */
  readonly logs?: string;
  /** An answer the hook may not give, for a hook whose answer is used (absent when Trellis ignores the answer). */
  readonly unusable?: { readonly value: unknown };
  /** The hook must answer at once: its unusable answer is given as it is, not in a promise. */
  readonly sync?: boolean;
  /** What each request gets while the hook fails: the documented default. */
  readonly expect: readonly string[];
  /** Installs `hook` in an app that logs to `logger`, sends the requests, and says what each got. */
  run(hook: Implementation, logger: Logger): Promise<string[]>;
}

/** A response as a scenario reports it: the status, and the problem's code when there is one. */
async function answer(app: App, request: InjectRequest): Promise<string> {
  const res = await app.inject(request);
  const type = String(res.headers['content-type'] ?? '');
  return type.startsWith('application/problem+json') ? `${res.statusCode} ${res.json().code}` : `${res.statusCode}`;
}

/** An app with one route, GET /, behind `annotations`, logging to `logger`. */
function appWith(logger: Logger, annotations: readonly AnnotationDecorator<any>[] = [], handler: () => unknown = () => 'ok'): App {
  const app = createApp();
  app.services.replace(Logger, () => logger);
  app.route(route('GET', '/', [...annotations], handler));
  return app;
}

const oneAllowed = () => [RateLimit({ name: 'one', permitLimit: 1, windowSeconds: 60 })];
const twice = async (app: App) => [await answer(app, { url: '/' }), await answer(app, { url: '/' })];
const ALLOWED_THEN_REFUSED = ['200', '429 TRELLIS_RATE_LIMITED'];

/** A store that admits without counting, as a shared store that could not answer does. */
const failingOpen: RateLimitStore = {
  acquire: () => ({ allowed: true, limit: 1, remaining: 1, reset: 0, retryAfter: 0, failedOpen: { error: new Error('no answer') } }),
};

/** A Standard Schema of nothing in particular: a body it describes, and no JSON Schema of its own. */
const anySchema: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) } };

const widgetEvent = { widgetContext: { dashboardName: 'd', widgetId: 'w', accountId: '1', params: {} } };

/** A meter whose instruments do nothing, but `counter` or `histogram` when given. */
function meter(instruments: { counter?: Implementation; histogram?: Implementation }) {
  return {
    createCounter: () => ({ add: instruments.counter ?? (() => undefined) }),
    createHistogram: () => ({ record: instruments.histogram ?? (() => undefined) }),
  };
}

/** A response cache store of `methods`, the rest an in-memory one's. */
function cacheStore(methods: Partial<ResponseCacheStore>): ResponseCacheStore {
  const memory = new MemoryResponseCache();
  return { get: (key) => memory.get(key), set: (key, value) => memory.set(key, value), ...methods };
}

function cachedApp(logger: Logger, store: ResponseCacheStore): App {
  let n = 0;
  const app = appWith(logger, [Cache({ seconds: 60, shared: true })], () => `n=${++n}`);
  app.services.replace(ResponseCacheStore, () => store);
  return app;
}

const observed = (method: keyof RateLimitObserver, logger: Logger, hook: Implementation) => {
  const app = appWith(logger, oneAllowed());
  app.services.add(RateLimitObserver, () => ({ [method]: hook }));
  return app;
};

export const HOOKS: Readonly<Record<string, Scenario>> = {
  'RateLimitConfigurationOptions.refusal': {
    logs: 'RateLimitConfiguration.refusal',
    unusable: { value: { status: 200 } },
    expect: ALLOWED_THEN_REFUSED,
    run: (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ refusal: hook }));
      return twice(app);
    },
  },
  'RateLimitConfigurationOptions.skip': {
    logs: 'RateLimitConfiguration.skip',
    sync: true,
    unusable: { value: 'yes' },
    expect: ALLOWED_THEN_REFUSED,
    run: (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ skip: hook }));
      return twice(app);
    },
  },
  'RateLimitSettings.cost': {
    unusable: { value: 0 },
    expect: ['500 TRELLIS_RATE_LIMIT_BROKEN'],
    run: async (hook, logger) => [await answer(appWith(logger, [RateLimit({ permitLimit: 5, cost: hook })]), { url: '/' })],
  },
  'RateLimitPolicyResolver.resolve': {
    unusable: { value: { permitLimit: 0, windowSeconds: 60 } },
    expect: ['500 TRELLIS_RATE_LIMIT_BROKEN'],
    run: async (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.add(RateLimitPolicyResolver, () => ({ resolve: hook }));
      return [await answer(app, { url: '/' })];
    },
  },
  'RateLimitPartitioner.partition': {
    unusable: { value: 42 },
    expect: ['500 TRELLIS_RATE_LIMIT_BROKEN'],
    run: async (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.replace(RateLimitPartitioner, () => ({ partition: hook }));
      return [await answer(app, { url: '/' })];
    },
  },
  'RateLimitObserver.decided': { expect: ALLOWED_THEN_REFUSED, run: (hook, logger) => twice(observed('decided', logger, hook)) },
  'RateLimitObserver.refused': { expect: ALLOWED_THEN_REFUSED, run: (hook, logger) => twice(observed('refused', logger, hook)) },
  'RateLimitObserver.failedOpen': {
    expect: ['200'],
    run: async (hook, logger) => {
      const app = observed('failedOpen', logger, hook);
      app.services.replace(RateLimitStore, () => failingOpen);
      return [await answer(app, { url: '/' })];
    },
  },
  'RateLimitObserver.storeFailed': {
    expect: ['503 TRELLIS_RATE_LIMIT_UNAVAILABLE'],
    run: async (hook, logger) => {
      const app = observed('storeFailed', logger, hook);
      app.services.replace(RateLimitStore, () => ({
        acquire: () => {
          throw new Error('the store is down');
        },
      }));
      return [await answer(app, { url: '/' })];
    },
  },
  'RateLimitMeter.createCounter().add': {
    expect: ALLOWED_THEN_REFUSED,
    run: (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.add(RateLimitObserver, () => rateLimitMetrics({ meter: meter({ counter: hook }) }));
      return twice(app);
    },
  },
  'RateLimitMeter.createHistogram().record': {
    expect: ALLOWED_THEN_REFUSED,
    run: (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.add(RateLimitObserver, () => rateLimitMetrics({ meter: meter({ histogram: hook }) }));
      return twice(app);
    },
  },
  'FallbackRateLimitStoreOptions.onFallback': {
    expect: ALLOWED_THEN_REFUSED,
    run: (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      const primary: RateLimitStore = {
        acquire: () => {
          throw new Error('the shared store is down');
        },
      };
      const store = new FallbackRateLimitStore({ primary, onFallback: hook });
      app.services.replace(RateLimitStore, () => store);
      return twice(app);
    },
  },
  'WidgetRateLimitPartitionerOptions.by': {
    unusable: { value: 42 },
    expect: ['ok'],
    run: async (hook, logger) => {
      const app = appWith(logger, oneAllowed());
      app.services.replace(RateLimitPartitioner, () => new WidgetRateLimitPartitioner({ by: hook }));
      return [String(await widgetHandler(app)(widgetEvent))];
    },
  },
  'Authenticator.authenticate': {
    unusable: { value: { kind: 'maybe' } },
    expect: ['500 TRELLIS_AUTHENTICATION_BROKEN'],
    run: async (hook, logger) => {
      const app = appWith(logger);
      app.services.add(Authenticator, () => ({ scheme: 'Test', authenticate: hook }));
      return [await answer(app, { url: '/' })];
    },
  },
  'ApiKeyAuthenticatorOptions.keys': {
    unusable: { value: 'alice' },
    expect: ['500 TRELLIS_AUTHENTICATION_BROKEN'],
    run: async (hook, logger) => {
      const app = appWith(logger);
      app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: hook }));
      return [await answer(app, { url: '/', headers: { 'x-api-key': 'k1' } })];
    },
  },
  'CorsOptions.origins': {
    sync: true,
    unusable: { value: 'yes' },
    expect: ['403 TRELLIS_CORS_REFUSED'],
    run: async (hook, logger) => {
      const app = createApp({ cors: { origins: hook } });
      app.services.replace(Logger, () => logger);
      app.route(route('GET', '/', () => 'ok'));
      const preflight = { origin: 'https://app.example.com', 'access-control-request-method': 'GET' };
      return [await answer(app, { method: 'OPTIONS', url: '/', headers: preflight })];
    },
  },
  'AppOptions.trustProxy': {
    sync: true,
    unusable: { value: 'yes' },
    expect: ['200 10.0.0.7'],
    run: async (hook, logger) => {
      const app = createApp({ trustProxy: hook });
      app.services.replace(Logger, () => logger);
      app.route(route('GET', '/', (ctx) => ctx.request.clientAddress));
      const res = await app.inject({ url: '/', remoteAddress: '10.0.0.7', headers: { 'x-forwarded-for': '203.0.113.9' } });
      return [`${res.statusCode} ${res.body}`];
    },
  },
  'App.onError(handler)': {
    logs: 'app.onError(handler)',
    unusable: { value: { n: 1n } },
    expect: ['500 TRELLIS_HANDLER_FAILED'],
    run: async (hook, logger) => {
      const app = appWith(logger, [], () => {
        throw new Error('the handler broke');
      });
      app.onError(hook);
      return [await answer(app, { url: '/' })];
    },
  },
  'LambdaHandlerOptions.isBinary': {
    sync: true,
    unusable: { value: 'yes' },
    expect: ['200 base64:false ok'],
    run: async (hook, logger) => {
      const handler = lambdaHandler(appWith(logger), { isBinary: hook });
      const result = await handler(httpEvent('http-api', { path: '/' }));
      return [`${result.statusCode} base64:${String(result.isBase64Encoded)} ${result.body}`];
    },
  },
  'ResponseCacheStore.get': {
    unusable: { value: { status: 'fresh' } },
    expect: ['200 n=1', '200 n=2'],
    run: async (hook, logger) => {
      const app = cachedApp(logger, cacheStore({ get: hook }));
      return [`200 ${(await app.inject({ url: '/' })).body}`, `200 ${(await app.inject({ url: '/' })).body}`];
    },
  },
  'ResponseCacheStore.set': {
    expect: ['200 n=1', '200 n=2'],
    run: async (hook, logger) => {
      const app = cachedApp(logger, cacheStore({ set: hook }));
      return [`200 ${(await app.inject({ url: '/' })).body}`, `200 ${(await app.inject({ url: '/' })).body}`];
    },
  },
  'ResponseCacheStore.now': {
    sync: true,
    unusable: { value: 'soon' },
    expect: ['200 n=1', '200 n=1'],
    run: async (hook, logger) => {
      const app = cachedApp(logger, cacheStore({ now: hook }));
      return [`200 ${(await app.inject({ url: '/' })).body}`, `200 ${(await app.inject({ url: '/' })).body}`];
    },
  },
  'Logger.error': {
    expect: ['500 TRELLIS_HANDLER_FAILED'],
    run: async (hook) => {
      const app = appWith({ warn: () => undefined, error: hook }, [], () => {
        throw new Error('the handler broke');
      });
      return [await answer(app, { url: '/' })];
    },
  },
  'Logger.warn': {
    expect: ['200'],
    run: async (hook) => {
      const app = appWith({ warn: hook, error: () => undefined }, oneAllowed());
      app.services.replace(RateLimitStore, () => failingOpen);
      return [await answer(app, { url: '/' })];
    },
  },
  'Logger.debug': {
    expect: ALLOWED_THEN_REFUSED,
    run: (hook) => twice(appWith({ debug: hook, warn: () => undefined, error: () => undefined }, oneAllowed())),
  },
  'DescribeOptions.include': {
    sync: true,
    unusable: { value: 'yes' },
    expect: ['lists /'],
    run: async (hook, logger) => {
      const text = String(await widgetHandler(appWith(logger), { describe: { include: hook } })({ describe: true }));
      return [text.includes('### `/`') ? 'lists /' : text];
    },
  },
  'OpenApiOptions.include': {
    sync: true,
    unusable: { value: 'yes' },
    expect: ['200 /,/openapi.json'],
    run: async (hook, logger) => {
      const app = appWith(logger);
      app.route(openApiRoute(app, { info: { title: 'T', version: '1' }, include: hook }));
      const res = await app.inject({ url: '/openapi.json' });
      return [`${res.statusCode} ${Object.keys(res.json().paths).join(',')}`];
    },
  },
  'OpenApiOptions.jsonSchema': {
    sync: true,
    unusable: { value: 42 },
    expect: ['200 unconverted'],
    run: async (hook, logger) => {
      const app = createApp();
      app.services.replace(Logger, () => logger);
      app.route(route('POST', '/', [Validate({ body: anySchema })], () => 'ok'));
      app.route(openApiRoute(app, { info: { title: 'T', version: '1' }, jsonSchema: hook }));
      const res = await app.inject({ url: '/openapi.json' });
      const schema = res.json().paths['/'].post.requestBody.content['application/json'].schema;
      return [`${res.statusCode} ${'x-trellis-unconverted' in schema ? 'unconverted' : JSON.stringify(schema)}`];
    },
  },
};

const BUILD_TIME =
  'asked while the app is built (build(), the first listen() or inject()): what it throws fails the build, where the caller sees it';
const APPLICATION =
  "the application's own code: what it throws or rejects with goes to app.onError, then the 500 problem (TRELLIS_HANDLER_FAILED), logged";
const TOKEN = 'a token: a class used as a key, never called';
const FACTORY =
  "a service factory: it makes a value of the application's, and what it throws is thrown where the service is asked for (in a handler, its error; in a filter, a 500 TRELLIS_PIPELINE_FAILED, logged); a promise it returns is the service";
const UPLOAD = "an uploaded file Trellis hands the handler (ctx.files): Trellis's code the handler calls";
const REQUEST_PART = "part of a request a door (or a test) hands Trellis: the door's code, not a hook";
const CHART =
  "called during the author's own call to the chart function, which gets what it throws; trellis/widgets runs without an app or its logger";
const CLOCK =
  'a clock (ManualClock in tests) is part of the store or log it is given to: one that throws fails that call, answered as that store failing (503 TRELLIS_RATE_LIMIT_UNAVAILABLE, logged) or, for the rate-limit log, 500 TRELLIS_PIPELINE_FAILED';
const REDIS_CLIENT = "the Redis client the store drives: its failures are Redis failures, answered by the store's failureMode";
const LAMBDA_RUNTIME = "the Lambda runtime's own object, handed to the user's code";

export const NOT_HOOKS: Readonly<Record<string, string>> = {
  'AnnotationKind.combine': BUILD_TIME,
  'AnnotationKind.sortKey': BUILD_TIME,
  'Feature.configure': BUILD_TIME,
  'Feature.filters': BUILD_TIME,
  'Filter.forRoute': BUILD_TIME,
  'Filter.run': "the application's own filter: what it throws or rejects with answers 500 TRELLIS_PIPELINE_FAILED, logged",
  'RouteDefinition.handler': APPLICATION,
  'route(handler)': APPLICATION,
  'App.controller(controller)': `the application's class, made when its handlers first run: ${APPLICATION}`,
  'documented(handler)': "a widget function's own handler, which documented() wraps and calls as the Lambda runtime would",
  'App.onError(type)': 'a class of errors, matched with instanceof, never called',
  'BodySource.read': REQUEST_PART,
  'BodySource.stream': REQUEST_PART,
  'BodySource.readNow': REQUEST_PART,
  'IncomingRequest.signal': REQUEST_PART,
  'new ExecutionContext(init).signal': REQUEST_PART,
  'InjectResponse.json': 'what inject() answers the user with: Trellis code the user calls',
  'UploadedFile.stream': UPLOAD,
  'UploadedFile.bytes': UPLOAD,
  'UploadedFile.text': UPLOAD,
  'RouteInfo.invoke': "Trellis's own call of a route's handler (see RouteDefinition.handler)",
  'ServiceResolver.get': "Trellis's resolver, handed to factories",
  'ServiceResolver.getAll': "Trellis's resolver, handed to factories",
  'ServiceResolver.tryGet': "Trellis's resolver, handed to factories",
  'ServiceCollection.add(token)': TOKEN,
  'ServiceCollection.addDefault(token)': TOKEN,
  'ServiceCollection.addValue(token)': TOKEN,
  'ServiceCollection.has(token)': TOKEN,
  'ServiceCollection.remove(token)': TOKEN,
  'ServiceCollection.replace(token)': TOKEN,
  'ServiceCollection.tryAdd(token)': TOKEN,
  'ServiceCollection.add(factory)': FACTORY,
  'ServiceCollection.addDefault(factory)': FACTORY,
  'ServiceCollection.replace(factory)': FACTORY,
  'ServiceCollection.tryAdd(factory)': FACTORY,
  'Registration.token': `what ServiceCollection.seal() answers, as registered: ${TOKEN}`,
  'Registration.factory': `what ServiceCollection.seal() answers, as registered: ${FACTORY}`,
  'RateLimitStore.acquire':
    'a store has its own failure contract: a throw, a rejection or an answer that is not a decision answers 503 (TRELLIS_RATE_LIMIT_UNAVAILABLE), tells RateLimitObserver.storeFailed and writes a throttled warning',
  'RateLimitStore.reset': "called by the application's own code (an admin route), which gets what it throws",
  'RateLimitMeter.createCounter': "called once, during the user's own call to rateLimitMetrics(), which gets what it throws",
  'RateLimitMeter.createHistogram': "called once, during the user's own call to rateLimitMetrics(), which gets what it throws",
  'RateLimitClock.now': CLOCK,
  'rateLimitStoreContract(makeStore)':
    "a store author's test code, called by the contract's tests under node:test: what it throws fails that test",
  'rateLimitStoreContract(teardown)': "a store author's test code, called once after the contract's tests: what it throws fails the run",
  'IoredisScriptClient.eval': REDIS_CLIENT,
  'IoredisScriptClient.evalsha': REDIS_CLIENT,
  'IoredisScriptClient.quit': REDIS_CLIENT,
  'NodeRedisScriptClient.eval': REDIS_CLIENT,
  'NodeRedisScriptClient.evalSha': REDIS_CLIENT,
  'LambdaContext.done': LAMBDA_RUNTIME,
  'LambdaContext.fail': LAMBDA_RUNTIME,
  'LambdaContext.getRemainingTimeInMillis': LAMBDA_RUNTIME,
  'LambdaContext.succeed': LAMBDA_RUNTIME,
  'LambdaResponseStream.setContentType': LAMBDA_RUNTIME,
  'lambdaHandler(source)':
    'the app factory: what it throws or rejects with fails that invocation (the Lambda runtime reports it), and the next one tries again',
  'lambdaStreamingHandler(source)':
    'the app factory: what it throws or rejects with fails that invocation (the Lambda runtime reports it), and the next one tries again',
  'ChartOptions.formatValue': CHART,
  'DataTableOptions.formatValue': CHART,
  'SparklineOptions.formatValue': CHART,
  'sparkline(options).formatValue': CHART,
};
