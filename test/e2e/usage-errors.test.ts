// Errors in how the framework is used carry a stable `code` and keep their class, and the documentation lists
// every code: a program can match `error.code` instead of a message, as it matches a problem's `code`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ApiKeyAuthenticator,
  Cache,
  Cors,
  HttpError,
  JwtBearerAuthenticator,
  createApp,
  createToken,
  reply,
  route,
  serverSentEvents,
  type UsageErrorCode,
} from 'trellis';
import { lambdaHandler } from 'trellis/lambda';
import { createOpenApiDocument } from 'trellis/openapi';
import { InProcessRateLimitStore, RateLimit, RateLimitConfiguration } from 'trellis/ratelimit';
import { DynamoDBRateLimitStore } from 'trellis/ratelimit/dynamodb';
import { RedisRateLimitStore } from 'trellis/ratelimit/redis';
import { ManualClock } from 'trellis/testing';
import { barChart, callAction } from 'trellis/widgets';
import { USAGE_ERRORS } from '../../packages/trellis/src/errors/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'packages/trellis/src');

/** Asserts that `act` throws (or rejects with) an instance of `Class` whose code is `code`. */
async function refuses(act: () => unknown, Class: ErrorConstructor, code: UsageErrorCode): Promise<void> {
  await assert.rejects(
    async () => {
      await act();
    },
    (error: unknown) => {
      assert.ok(error instanceof Class, `${String(error)} is a ${Class.name}`);
      assert.equal((error as { code?: unknown }).code, code, error.message);
      return true;
    },
  );
}

const hello = () => route('GET', '/hello', () => 'hello');

describe('errors in how the framework is used', () => {
  it('app options, building and listening', async () => {
    await refuses(() => createApp({ bodyLimit: -1 }), RangeError, 'TRELLIS_INVALID_APP_OPTIONS');
    await refuses(() => createApp({ trustProxy: 1.5 }), RangeError, 'TRELLIS_INVALID_APP_OPTIONS');
    await refuses(() => createApp({ trustProxy: ['not an address'] }), TypeError, 'TRELLIS_INVALID_APP_OPTIONS');
    await refuses(() => createApp().onError(42 as never), TypeError, 'TRELLIS_INVALID_APP_OPTIONS');
    const built = createApp().route(hello()).build();
    await refuses(() => built.route(route('GET', '/later', () => 'later')), Error, 'TRELLIS_APP_BUILT');
    const app = createApp().route(hello());
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await refuses(() => app.listen({ port: 0, host: '127.0.0.1' }), Error, 'TRELLIS_APP_LISTENING');
    } finally {
      await app.close();
    }
  });

  it('routes and annotations', async () => {
    await refuses(() => route('GET', 'no-slash', () => 1), TypeError, 'TRELLIS_INVALID_ROUTE');
    await refuses(() => route('GET', '/a', 42 as never), TypeError, 'TRELLIS_INVALID_ROUTE');
    await refuses(
      () =>
        createApp()
          .route(route('GET', '/a/*/b', () => 1))
          .build(),
      TypeError,
      'TRELLIS_INVALID_ROUTE',
    );
    await refuses(() => createApp().route(hello(), hello()).build(), TypeError, 'TRELLIS_DUPLICATE_ROUTE');
    await refuses(() => Cache({ seconds: 0 }), TypeError, 'TRELLIS_INVALID_ANNOTATION');
    await refuses(
      () =>
        createApp()
          .route(
            route(
              'GET',
              '/limited',
              [
                RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 }),
                RateLimit({ name: 'burst', permitLimit: 6, windowSeconds: 1 }),
              ],
              () => 1,
            ),
          )
          .build(),
      TypeError,
      'TRELLIS_CONFLICTING_ANNOTATIONS',
    );
    await refuses(() => createApp().filter({} as never), TypeError, 'TRELLIS_INVALID_FILTER');
    const both = { name: 'both', order: 1, run: () => undefined, forRoute: () => undefined };
    await refuses(() => createApp().filter(both), TypeError, 'TRELLIS_INVALID_FILTER');
    await refuses(() => createApp().services.add(createToken('thing'), 42 as never), TypeError, 'TRELLIS_INVALID_SERVICE');
  });

  it('rate limits and their stores', async () => {
    await refuses(() => RateLimit({ name: 'x', permitLimit: 0, windowSeconds: 1 }), TypeError, 'TRELLIS_INVALID_RATE_LIMIT');
    await refuses(() => new RateLimitConfiguration({ logIntervalSeconds: -1 }), TypeError, 'TRELLIS_INVALID_RATE_LIMIT_CONFIGURATION');
    await refuses(() => new InProcessRateLimitStore({ maxTrackedPartitions: 0 }), TypeError, 'TRELLIS_INVALID_STORE_OPTIONS');
    await refuses(() => new RedisRateLimitStore({}), TypeError, 'TRELLIS_INVALID_STORE_OPTIONS');
    await refuses(() => new RedisRateLimitStore({ url: 'http://redis' }), TypeError, 'TRELLIS_INVALID_STORE_OPTIONS');
    await refuses(() => new DynamoDBRateLimitStore({} as never), TypeError, 'TRELLIS_INVALID_STORE_OPTIONS');
    await refuses(() => new InProcessRateLimitStore().acquire(42 as never, {} as never), TypeError, 'TRELLIS_INVALID_STORE_CALL');
  });

  it('authentication and CORS', async () => {
    await refuses(() => new ApiKeyAuthenticator({} as never), TypeError, 'TRELLIS_INVALID_AUTH_OPTIONS');
    await refuses(() => new JwtBearerAuthenticator({ secret: 'short' } as never), RangeError, 'TRELLIS_INVALID_AUTH_OPTIONS');
    await refuses(() => new JwtBearerAuthenticator({ secret: 'x'.repeat(32) } as never), TypeError, 'TRELLIS_JWT_AUDIENCE_REQUIRED');
    await refuses(() => Cors({ origins: ['https://a.example'], credentials: 'yes' as never }), TypeError, 'TRELLIS_INVALID_CORS_OPTIONS');
    await refuses(() => Cors({ origins: '*', credentials: true }), TypeError, 'TRELLIS_CORS_ANY_ORIGIN_WITH_CREDENTIALS');
  });

  it('Lambda doors and their events, OpenAPI', async () => {
    await refuses(() => lambdaHandler(42 as never), TypeError, 'TRELLIS_INVALID_LAMBDA_OPTIONS');
    const handler = lambdaHandler(createApp().route(hello()));
    await refuses(() => handler({ nothing: 'here' } as never, {}), TypeError, 'TRELLIS_INVALID_EVENT');
    await refuses(() => createOpenApiDocument({} as never, {} as never), TypeError, 'TRELLIS_INVALID_OPENAPI_OPTIONS');
  });

  it('functions called with an argument they cannot take', async () => {
    await refuses(() => reply('x', { status: 42 }), RangeError, 'TRELLIS_INVALID_ARGUMENT');
    await refuses(() => new HttpError(200), RangeError, 'TRELLIS_INVALID_ARGUMENT');
    await refuses(() => serverSentEvents(42 as never), TypeError, 'TRELLIS_INVALID_ARGUMENT');
    await refuses(() => new ManualClock(10).set(5), RangeError, 'TRELLIS_INVALID_ARGUMENT');
    await refuses(() => callAction({} as never), TypeError, 'TRELLIS_INVALID_ARGUMENT');
    await refuses(() => barChart({ categories: ['a', 'b'], series: [{ name: 's', values: [1] }] }), TypeError, 'TRELLIS_INVALID_ARGUMENT');
  });
});

/** The framework's non-test source files. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Files that make a TypeError or RangeError of their own, and why it carries no code: the error is a cause,
 * never thrown to the application as is.
 */
const UNCODED: Record<string, string> = {
  'ratelimit/user-hooks.ts': "a hook's unusable answer: the guard turns it into the request's failure",
  'ratelimit/partitioner.ts': "a partitioner's unusable answer: TRELLIS_RATE_LIMIT_BROKEN",
  'ratelimit/refusal.ts': "a hook's unusable answer: the guard turns it into the request's failure",
  'ratelimit/policy-resolver.ts': "a resolver's unusable answer: the guard turns it into the request's failure",
  'ratelimit/filters.ts': "a store's unusable answer: TRELLIS_RATE_LIMIT_BROKEN",
  'ratelimit/counter-state.ts': "a store's answer that breaks the contract, to the store contract suite",
  'auth/api-key.ts': "a lookup's unusable answer: TRELLIS_AUTHENTICATION_BROKEN",
  'lambda/widget/partitioner.ts': "a partitioner's unusable answer: the guard turns it into the request's failure",
  'pipeline/user-code.ts': "a hook's unusable answer: the guard turns it into the request's failure",
  'openapi/json-schema.ts': "a converter's unusable answer, reported by the guard",
  'filters/response-cache/response-cache-filter.ts': "a cache store's unusable answer, reported by the guard",
  'filters/authentication/authentication-filter.ts': "an authenticator's unusable answer: TRELLIS_AUTHENTICATION_BROKEN",
  'filters/serialization/streams.ts': 'a streamed chunk that is not bytes or text: the response fails (TRELLIS_RESPONSE_UNWRITABLE)',
  'app/client-address.ts': 'a trustProxy entry that is not an address: the cause of TRELLIS_INVALID_APP_OPTIONS',
  'app/ip-address.ts': 'a trustProxy entry that is not an address: the cause of TRELLIS_INVALID_APP_OPTIONS',
  'app/inject.ts': "the RangeError Node.js's own writeHead throws, which inject() mirrors",
  'ratelimit/store-contract.ts': "the store contract suite's own assertions",
};

describe('the codes', () => {
  it('every TypeError and RangeError the framework throws at an application carries a code of the table', () => {
    const bare = sources()
      .filter((file) => /new (TypeError|RangeError)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
      .filter((file) => !file.startsWith('errors/') && UNCODED[file] === undefined);
    assert.deepEqual(bare, [], 'make these with usageError(code, message), or say in UNCODED why they carry no code');
  });

  it('every code of the table is thrown somewhere and documented beside the failures of requests', () => {
    const code = sources()
      .filter((file) => !relative(SRC, file).startsWith('errors/'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const docs = readFileSync(join(ROOT, 'docs/framework.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Failures and their codes'), docs.indexOf('## Your code, called by the framework'));
    for (const name of Object.keys(USAGE_ERRORS)) {
      assert.ok(code.includes(`'${name}'`), `${name} is thrown somewhere`);
      assert.ok(
        new RegExp(`^\\| (\`[A-Z_]+\`, )*\`${name}\`(, \`[A-Z_]+\`)* \\|`, 'm').test(section),
        `${name} has a row in docs/framework.md`,
      );
    }
  });
});
