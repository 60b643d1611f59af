// DynamoDBRateLimitStore's requests and its answers where the contract suite does not look: how many DynamoDB
// requests an acquire takes, processes with stale windows, keys DynamoDB would refuse, resets, foreign items,
// the item DynamoDB returns with a failed condition, a counter that keeps changing, and input that counts
// nothing. On dynalite (a DynamoDB implementation started here), and on a scripted client for what dynalite
// does not do (it returns no item with a failed condition). And the table the documentation defines.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GetItemCommand, PutItemCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBRateLimitStore,
  dynamoDBRateLimitTable,
  type DynamoDBRateLimitStoreOptions,
} from '../../packages/trellis/src/ratelimit/dynamodb/index.js';
import {
  ManualClock,
  RateLimitStoreUnavailableError,
  readRateLimitCounter,
  type RateLimitDecision,
} from '../../packages/trellis/src/ratelimit/index.js';
import { burstPolicy } from '../support/rate-limit-policy.js';
import { dynaliteWithTable } from '../support/dynamodb-table.js';
import { parseTemplate, readTemplate } from '../support/cloudformation-yaml.js';
import { validateTemplate } from '../support/cloudformation-validate.js';

const TABLE = 'rate-limits';
const START_MS = 1_700_000_012_345;

/** A client that counts the commands sent through it, by name. */
function counting(client: DynamoDBClient): { client: DynamoDBClient; sent: string[] } {
  const sent: string[] = [];
  const wrapper = {
    send(command: { constructor: { name: string } }, options?: unknown) {
      sent.push(command.constructor.name.replace(/Command$/, ''));
      return (client.send as (c: unknown, o?: unknown) => Promise<unknown>)(command, options);
    },
  };
  return { client: wrapper as unknown as DynamoDBClient, sent };
}

describe('DynamoDBRateLimitStore on dynalite', () => {
  let client: DynamoDBClient;
  const db = dynaliteWithTable(TABLE);
  before(() => ({ client } = db));

  const store = (options: Partial<DynamoDBRateLimitStoreOptions> & { clock: ManualClock }) =>
    new DynamoDBRateLimitStore({ client, tableName: TABLE, keyPrefix: `s:${randomUUID()}:`, timeoutMs: 10_000, ...options });

  test('an admission is one UpdateItem, a refusal one GetItem, and acquires of one counter started together share one request', async () => {
    const counted = counting(client);
    const clock = new ManualClock(START_MS);
    const limited = store({ client: counted.client, clock });
    const policy = burstPolicy(3, 60);
    assert.equal((await limited.acquire('alice', policy)).remaining, 2);
    assert.equal((await limited.acquire('alice', policy)).remaining, 1);
    assert.deepEqual(counted.sent, ['UpdateItem', 'UpdateItem']);
    counted.sent.length = 0;
    assert.equal((await limited.acquire('alice', policy)).remaining, 0);
    assert.equal((await limited.acquire('alice', policy)).allowed, false);
    assert.deepEqual(counted.sent, ['UpdateItem', 'GetItem']);

    counted.sent.length = 0;
    const together = await Promise.all(Array.from({ length: 12 }, () => limited.acquire('bob', burstPolicy(10, 60))));
    assert.deepEqual(together.map((d) => d.allowed).filter(Boolean).length, 10);
    assert.deepEqual(
      together.map((d) => d.remaining),
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0],
    );
    assert.deepEqual(counted.sent, ['UpdateItem'], 'twelve acquires, one request');
  });

  test('processes with stale windows stay exact: a write on a window another process changed fails, and is decided again on the item', async () => {
    const clock = new ManualClock(START_MS);
    const keyPrefix = `p:${randomUUID()}:`;
    const a = counting(client);
    const b = counting(client);
    const first = store({ client: a.client, clock, keyPrefix });
    const second = store({ client: b.client, clock, keyPrefix });
    const policy = burstPolicy(4, 60);
    assert.equal((await first.acquire('carol', policy)).remaining, 3);
    assert.equal((await second.acquire('carol', policy)).remaining, 2, "the second process counts the first one's permit");
    assert.deepEqual(
      b.sent,
      ['UpdateItem', 'GetItem', 'UpdateItem'],
      'its blind write failed, it read the item (dynalite returns none with the failure) and wrote again',
    );
    clock.advance(1_000);
    assert.equal((await first.acquire('carol', policy)).remaining, 1);
    assert.equal((await second.acquire('carol', policy)).remaining, 0);
    assert.equal((await first.acquire('carol', policy)).allowed, false);
    const refused = await second.acquire('carol', policy);
    assert.deepEqual(refused, { allowed: false, limit: 4, remaining: 0, reset: 59, retryAfter: 59 });
    clock.advance(59_000);
    assert.deepEqual(
      await Promise.all([first.acquire('carol', policy), second.acquire('carol', policy), first.acquire('carol', policy)]).then((ds) =>
        ds.map((d) => d.allowed).sort(),
      ),
      [false, true, true],
      'the two permits of the first second freed, for whichever process asks',
    );
  });

  test('refusals read the counter without spending: readRateLimitCounter sees what another process spent', async () => {
    const clock = new ManualClock(START_MS);
    const keyPrefix = `r:${randomUUID()}:`;
    const spender = store({ clock, keyPrefix });
    const reader = store({ clock, keyPrefix });
    const policy = burstPolicy(5, 60);
    await spender.acquire('dave', policy, { cost: 3 });
    assert.deepEqual(await readRateLimitCounter(reader, 'dave', policy), { limit: 5, used: 3, remaining: 2, reset: 60 });
    await spender.acquire('dave', policy);
    assert.deepEqual(await readRateLimitCounter(reader, 'dave', policy), { limit: 5, used: 4, remaining: 1, reset: 60 });
  });

  test('reset: the caller starts afresh in every process, even one whose window was the last one written', async () => {
    const clock = new ManualClock(START_MS);
    const keyPrefix = `x:${randomUUID()}:`;
    const busy = store({ clock, keyPrefix });
    const admin = store({ clock, keyPrefix });
    const policy = burstPolicy(2, 60);
    await busy.acquire('erin', policy);
    await busy.acquire('erin', policy);
    assert.equal((await busy.acquire('erin', policy)).allowed, false);
    await admin.reset('erin', policy);
    assert.equal((await busy.acquire('erin', policy)).remaining, 1, 'not the old window written back');
    assert.equal((await busy.acquire('erin', policy)).remaining, 0);
  });

  test('a partition DynamoDB would refuse as a key (too long, or not Unicode) is counted under a hashed key', async () => {
    const clock = new ManualClock(START_MS);
    const limited = store({ clock });
    const policy = burstPolicy(1, 60);
    for (const partition of [`header:${'x'.repeat(20_000)}`, 'subject:\ud800', `header:${'y'.repeat(20_000)}`]) {
      assert.equal((await limited.acquire(partition, policy)).allowed, true, partition.slice(0, 12));
      const again = await limited.acquire(partition, policy);
      assert.equal(again.allowed, false);
      assert.equal(again.failedOpen, undefined);
    }
  });

  test('an item this store did not write is replaced; a window that grows keeps counting the permits of the shorter one', async () => {
    const clock = new ManualClock(START_MS);
    const keyPrefix = `f:${randomUUID()}:`;
    const limited = store({ clock, keyPrefix });
    const policy = burstPolicy(2, 10);
    await client.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: { pk: { S: `${keyPrefix}${policy.key}|frank` }, w: { B: Uint8Array.from([9, 9, 9]) }, ttl: { N: '9999999999' } },
      }),
    );
    assert.equal((await limited.acquire('frank', policy)).remaining, 1);
    clock.advance(5_000);
    assert.deepEqual(await limited.acquire('frank', burstPolicy(2, 60)), {
      allowed: true,
      limit: 2,
      remaining: 0,
      reset: 55,
      retryAfter: 0,
    });
    const item = await client.send(
      new GetItemCommand({ TableName: TABLE, Key: { pk: { S: `${keyPrefix}${policy.key}|frank` } }, ConsistentRead: true }),
    );
    assert.equal(item.Item?.ttl?.N, String(Math.ceil((START_MS + 65_000) / 1000)), 'the item expires when its newest permit frees');
  });

  test('bad input is a TypeError and sends nothing', async () => {
    const counted = counting(client);
    const limited = store({ client: counted.client, clock: new ManualClock(START_MS) });
    await assert.rejects(limited.acquire(42 as unknown as string, burstPolicy(1, 60)), TypeError);
    await assert.rejects(limited.acquire('a', burstPolicy(0, 60)), TypeError);
    await assert.rejects(limited.acquire('a', burstPolicy(1, 60), { cost: 0.5 }), TypeError);
    await assert.rejects(limited.acquire('a', burstPolicy(1, 1e12)), /windowSeconds must be at most/);
    await assert.rejects(limited.reset('a', burstPolicy(1, Number.NaN)), TypeError);
    const broken = store({ clock: { now: () => Number.NaN } as unknown as ManualClock });
    await assert.rejects(broken.acquire('a', burstPolicy(1, 60)), /clock.now\(\) must return/);
    assert.deepEqual(counted.sent, []);
    assert.throws(() => new DynamoDBRateLimitStore({ client, tableName: 'x' }), /tableName/);
    assert.throws(() => new DynamoDBRateLimitStore({ client: {} as DynamoDBClient, tableName: TABLE }), /client/);
    assert.throws(() => new DynamoDBRateLimitStore({ client, tableName: TABLE, failureMode: 'open' as never }), /failOpen/);
  });

  test('every item stays under one write unit (1 KB) after a day of a segmented limit', async () => {
    const clock = new ManualClock(START_MS);
    const keyPrefix = `z:${randomUUID()}:`;
    const limited = store({ clock, keyPrefix });
    const policy = burstPolicy(100_000, 86_400);
    for (let i = 0; i < 300; i++) {
      clock.advance(86_400_000 / 260 + (i % 13) * 1_000);
      await limited.acquire('gina', policy, { cost: 1 + (i % 7) * 50 });
    }
    const items = await client.send(new ScanCommand({ TableName: TABLE }));
    const ours = (items.Items ?? []).filter((item) => item.pk?.S?.startsWith(keyPrefix));
    assert.equal(ours.length, 1);
    // DynamoDB's item size: each attribute's name plus its value (a number: 1 byte + 1 per 2 digits).
    const size = 2 + ours[0]!.pk!.S!.length + 1 + ours[0]!.w!.B!.length + 3 + 1 + Math.ceil(ours[0]!.ttl!.N!.length / 2);
    assert.ok(size <= 1024, `${size} bytes`);
  });
});

/** A client whose answers are scripted: each call takes the next answer (a value, or an error to throw). */
function scripted(answers: Array<(input: any) => unknown>): { client: DynamoDBClient; sent: Array<{ name: string; input: any }> } {
  const sent: Array<{ name: string; input: any }> = [];
  const fake = {
    async send(command: { constructor: { name: string }; input: unknown }) {
      sent.push({ name: command.constructor.name.replace(/Command$/, ''), input: command.input });
      const next = answers.shift();
      if (next === undefined) throw new Error('no answer scripted');
      const answer = next(command.input);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { client: fake as unknown as DynamoDBClient, sent };
}

function conditionFailed(item?: Record<string, unknown>): Error {
  return Object.assign(new Error('The conditional request failed'), {
    name: 'ConditionalCheckFailedException',
    ...(item ? { Item: item } : {}),
  });
}

describe('DynamoDBRateLimitStore with the item DynamoDB returns on a failed condition', () => {
  test('a stale write gets the item back in the same answer: decided again without a read, two requests in all', async () => {
    // What another process wrote: 2 of 3 permits, taken one second ago. Made by a store on another scripted client.
    let written: Uint8Array | undefined;
    const other = scripted([
      (input) => ((written = input.ExpressionAttributeValues[':w'].B), {}),
      (input) => ((written = input.ExpressionAttributeValues[':w'].B), {}),
    ]);
    const clock = new ManualClock(START_MS);
    const writer = new DynamoDBRateLimitStore({ client: other.client, tableName: TABLE, clock });
    await writer.acquire('hal', burstPolicy(3, 60));
    await writer.acquire('hal', burstPolicy(3, 60));
    clock.advance(1_000);

    const fake = scripted([() => conditionFailed({ pk: { S: 'k' }, w: { B: written } }), () => ({})]);
    const store = new DynamoDBRateLimitStore({ client: fake.client, tableName: TABLE, clock });
    assert.deepEqual(await store.acquire('hal', burstPolicy(3, 60)), { allowed: true, limit: 3, remaining: 0, reset: 59, retryAfter: 0 });
    assert.deepEqual(
      fake.sent.map((s) => s.name),
      ['UpdateItem', 'UpdateItem'],
    );
    assert.equal(fake.sent[0]!.input.ConditionExpression, 'attribute_not_exists(#w) OR #t < :now');
    assert.equal(fake.sent[1]!.input.ConditionExpression, '#w = :old OR #t < :now');
    assert.deepEqual(fake.sent[1]!.input.ExpressionAttributeValues[':old'].B, written);
    assert.equal(fake.sent[0]!.input.ReturnValuesOnConditionCheckFailure, 'ALL_OLD');
  });

  test(`a counter that keeps changing under the writes: conflictRetries more tries, then the failure mode`, async () => {
    const clock = new ManualClock(START_MS);
    let version = 0;
    const changing = () => conditionFailed({ w: { B: Uint8Array.from([1, 1, version, 0, 1, 1]) }, ttl: { N: String(++version) } });
    const open = scripted(Array.from({ length: 4 }, () => changing));
    const store = new DynamoDBRateLimitStore({ client: open.client, tableName: TABLE, clock, conflictRetries: 3 });
    const decision: RateLimitDecision = await store.acquire('ivy', burstPolicy(5, 60));
    assert.equal(decision.allowed, true);
    assert.match(String((decision.failedOpen?.error as Error).message), /changed under 4 writes in a row/);
    assert.equal(open.sent.length, 4);

    const closed = scripted(Array.from({ length: 2 }, () => changing));
    const strict = new DynamoDBRateLimitStore({
      client: closed.client,
      tableName: TABLE,
      clock,
      conflictRetries: 1,
      failureMode: 'failClosed',
    });
    await assert.rejects(strict.acquire('ivy', burstPolicy(5, 60)), RateLimitStoreUnavailableError);
  });
});

describe('the table as the documentation defines it', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/rate-limiting.md', import.meta.url)), 'utf8');
  const section = doc.slice(doc.indexOf('### The table', doc.indexOf('## Distributed rate limiting on DynamoDB')));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];

  test('the SAM template is valid CloudFormation, with the table dynamoDBRateLimitTable makes and the permissions the store uses', () => {
    assert.ok(yaml, 'the section shows a template');
    const template = parseTemplate(yaml) as any;
    assert.deepEqual(validateTemplate(template), []);
    const table = template.Resources.RateLimitTable.Properties;
    const { createTable, timeToLive } = dynamoDBRateLimitTable('x');
    assert.deepEqual(table.KeySchema, createTable.KeySchema);
    assert.deepEqual(table.AttributeDefinitions, createTable.AttributeDefinitions);
    assert.equal(table.BillingMode, createTable.BillingMode);
    assert.deepEqual(table.TimeToLiveSpecification, timeToLive.TimeToLiveSpecification);
    const [statement] = template.Resources.ApiFunction.Properties.Policies[0].Statement;
    assert.deepEqual(statement.Action, ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:DeleteItem']);
    assert.deepEqual(statement.Resource, { 'Fn::GetAtt': ['RateLimitTable', 'Arn'] });
  });

  test("the Lambda example's template makes that table and names it to its function, as the documentation says", () => {
    const template = readTemplate(fileURLToPath(new URL('../../examples/lambda-api/template.yaml', import.meta.url))) as any;
    const table = template.Resources.RateLimitTable;
    assert.equal(table?.Type, 'AWS::DynamoDB::Table');
    const { createTable, timeToLive } = dynamoDBRateLimitTable('x');
    assert.deepEqual(table.Properties.KeySchema, createTable.KeySchema);
    assert.deepEqual(table.Properties.AttributeDefinitions, createTable.AttributeDefinitions);
    assert.deepEqual(table.Properties.TimeToLiveSpecification, timeToLive.TimeToLiveSpecification);
    const fn = template.Resources.OrdersFunction.Properties;
    assert.deepEqual(fn.Environment.Variables.RATE_LIMIT_TABLE, { Ref: 'RateLimitTable' });
    const statement = fn.Policies.flatMap((p: any) => p.Statement ?? []).find(
      (st: any) => st.Resource?.['Fn::GetAtt']?.[0] === 'RateLimitTable',
    );
    assert.deepEqual(statement?.Action, ['dynamodb:UpdateItem', 'dynamodb:GetItem']);
    assert.match(section, /The Lambda example's template makes this table too \(`RateLimitTable`/);
    assert.match(section, /its policy leaves out `dynamodb:DeleteItem`/);
    const lambda = readFileSync(fileURLToPath(new URL('../../docs/lambda.md', import.meta.url)), 'utf8');
    assert.match(lambda, /^ {2}RateLimitTable:\n {4}Type: AWS::DynamoDB::Table$/m, 'docs/lambda.md shows the table in the template');
  });
});
