// The guide's orders API (examples/lambda-api) written with Hono, for the bundle benchmark: the same routes,
// API keys read from SSM Parameter Store at init, grants, a per-caller limit of 20 a minute with RateLimit-*
// headers (hono-rate-limiter), a cached health check, ioredis loaded only when REDIS_URL is set and the
// DynamoDB client only when RATE_LIMIT_TABLE is, as the guide's handler loads them.
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { Hono, type Context, type Next } from 'hono';
import { handle } from 'hono/aws-lambda';
import { HTTPException } from 'hono/http-exception';
import { rateLimiter } from 'hono-rate-limiter';

interface Caller {
  subject: string;
  grants?: string[];
}
interface Order {
  id: string;
  item: string;
  quantity: number;
  owner: string;
}
type Env = { Variables: { caller: Caller } };

async function readApiKeys(): Promise<Record<string, Caller>> {
  const name = process.env.API_KEYS_PARAMETER;
  if (!name) throw new Error('API_KEYS_PARAMETER is not set: it names the SSM SecureString parameter holding the API keys.');
  const { Parameter } = await new SSMClient({}).send(new GetParameterCommand({ Name: name, WithDecryption: true }));
  if (Parameter?.Value === undefined) throw new Error(`The SSM parameter ${name} has no value.`);
  return JSON.parse(Parameter.Value) as Record<string, Caller>;
}

const keys = await readApiKeys();
const redis = process.env.REDIS_URL ? new (await import('ioredis')).Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 }) : undefined;
const dynamo = !redis && process.env.RATE_LIMIT_TABLE ? new (await import('@aws-sdk/client-dynamodb')).DynamoDBClient({}) : undefined;
void redis;
void dynamo;
const orders = new Map<string, Order>();

const authorize = (grant?: string) => async (c: Context<Env>, next: Next) => {
  const caller = keys[c.req.header('x-api-key') ?? ''];
  if (!caller) throw new HTTPException(401, { message: 'An API key is required.' });
  if (grant && !caller.grants?.includes(grant)) throw new HTTPException(403, { message: `The ${grant} grant is required.` });
  c.set('caller', caller);
  await next();
};
const perCaller = rateLimiter<Env>({
  windowMs: 60_000,
  limit: 20,
  standardHeaders: 'draft-6',
  keyGenerator: (c) => c.get('caller').subject,
});

const app = new Hono<Env>();
app.get('/health', (c) => {
  c.header('cache-control', 'public, max-age=30');
  return c.json({ status: 'ok' });
});
app.get('/whoami', authorize(), perCaller, (c) => c.json({ subject: c.get('caller').subject }));
app.get('/orders', authorize('orders:read'), perCaller, (c) =>
  c.json([...orders.values()].filter((o) => o.owner === c.get('caller').subject)),
);
app.get('/orders/:id', authorize('orders:read'), perCaller, (c) => {
  const order = orders.get(c.req.param('id'));
  if (!order || order.owner !== c.get('caller').subject) throw new HTTPException(404, { message: `No order ${c.req.param('id')}.` });
  return c.json(order);
});
app.post('/orders', authorize('orders:write'), perCaller, async (c) => {
  const body = await c.req.json<{ item?: unknown; quantity?: unknown }>();
  if (typeof body.item !== 'string' || body.item === '' || !Number.isInteger(body.quantity) || (body.quantity as number) < 1) {
    throw new HTTPException(400, { message: 'Send { "item": a non-empty string, "quantity": a whole number ≥ 1 }.' });
  }
  const order: Order = { id: String(orders.size + 1), item: body.item, quantity: body.quantity as number, owner: c.get('caller').subject };
  orders.set(order.id, order);
  return c.json(order, 201, { location: `/orders/${order.id}` });
});

export const handler = handle(app);
