// The Lambda entry point (Handler: handler.handler). Everything here runs once per execution environment,
// during Lambda's init phase: the API keys are read from SSM Parameter Store (a SecureString, decrypted) and
// kept for the environment's life, and the app is built. With REDIS_URL set, rate limits are counted in Redis
// across all execution environments; without it, each environment counts on its own.
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { ApiKeyIdentity } from 'trellis';
import { lambdaHandler } from 'trellis/lambda';
import type { RateLimitStore } from 'trellis/ratelimit';
import { createOrdersApp } from './app.js';

/** The API keys (key → caller) from the SecureString parameter that API_KEYS_PARAMETER names. */
async function readApiKeys(): Promise<Record<string, ApiKeyIdentity>> {
  const name = process.env.API_KEYS_PARAMETER;
  if (!name) throw new Error('API_KEYS_PARAMETER is not set: it names the SSM SecureString parameter holding the API keys.');
  const { Parameter } = await new SSMClient({}).send(new GetParameterCommand({ Name: name, WithDecryption: true }));
  if (Parameter?.Value === undefined) throw new Error(`The SSM parameter ${name} has no value.`);
  return JSON.parse(Parameter.Value) as Record<string, ApiKeyIdentity>;
}

/**
 * The Redis store when REDIS_URL is set. The Redis client is loaded only then, so an environment that counts on
 * its own never spends its cold start loading it; the bundler still sees the import and packs ioredis.
 */
async function sharedStore(): Promise<RateLimitStore | undefined> {
  const url = process.env.REDIS_URL;
  if (!url) return undefined;
  const [{ Redis }, { RedisRateLimitStore }] = await Promise.all([import('ioredis'), import('trellis/ratelimit/redis')]);
  return new RedisRateLimitStore({ client: new Redis(url, { maxRetriesPerRequest: 1 }), keyPrefix: 'orders:' });
}

export const handler = lambdaHandler(createOrdersApp({ apiKeys: await readApiKeys(), store: await sharedStore() }));
