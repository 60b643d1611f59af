// The Lambda entry point (Handler: handler.handler). Everything here runs once per execution environment,
// during Lambda's init phase: the API keys are read from SSM Parameter Store (a SecureString, decrypted) and
// kept for the environment's life, and the app is built. Rate limits are counted where every execution
// environment shares them: in Redis when REDIS_URL is set, else in the DynamoDB table RATE_LIMIT_TABLE names
// (template.yaml makes it); with neither, each environment counts on its own.
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
 * The shared rate-limit store, if any. A store's client is loaded only when that store is used, so a cold start
 * never spends time loading the other; the bundler still sees both imports and packs ioredis (the AWS SDK
 * comes with Lambda's Node.js runtimes).
 */
async function sharedStore(): Promise<RateLimitStore | undefined> {
  const url = process.env.REDIS_URL;
  if (url) {
    const [{ Redis }, { RedisRateLimitStore }] = await Promise.all([import('ioredis'), import('trellis/ratelimit/redis')]);
    return new RedisRateLimitStore({ client: new Redis(url, { maxRetriesPerRequest: 1 }), keyPrefix: 'orders:' });
  }
  const tableName = process.env.RATE_LIMIT_TABLE;
  if (tableName) {
    const [{ DynamoDBClient }, { DynamoDBRateLimitStore }] = await Promise.all([
      import('@aws-sdk/client-dynamodb'),
      import('trellis/ratelimit/dynamodb'),
    ]);
    return new DynamoDBRateLimitStore({ client: new DynamoDBClient({}), tableName, keyPrefix: 'orders:' });
  }
  return undefined;
}

export const handler = lambdaHandler(createOrdersApp({ apiKeys: await readApiKeys(), store: await sharedStore() }));
