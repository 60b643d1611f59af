import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { FunctionRegistry } from './index.js';

interface Seen {
  method: string;
  url: string;
  body: unknown;
  headers: IncomingMessage['headers'];
}

/** A small Invoke-API-compatible server, answering per function name like `sam local start-lambda`. */
function fakeInvokeApi(): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const routes: Record<string, (event: any, res: ServerResponse) => void> = {
    report: (event, res) => {
      res.setHeader('x-amz-log-result', Buffer.from('START\nreport ran\nEND\n').toString('base64'));
      res.setHeader('x-amzn-requestid', 'req-123');
      res.end(JSON.stringify(`<p>report for ${event.name}</p>`));
    },
    flagged: (_e, res) => {
      res.setHeader('x-amz-function-error', 'Unhandled');
      res.end(
        JSON.stringify({ errorType: 'TypeError', errorMessage: 'flagged failure', trace: ['TypeError: flagged failure', '    at x'] }),
      );
    },
    shaped: (_e, res) => res.end(JSON.stringify({ errorMessage: 'shape only', errorType: 'Error', stackTrace: ['File "x.py"'] })),
    string: (_e, res) => {
      res.setHeader('x-amz-function-error', 'Unhandled');
      res.end(JSON.stringify({ errorType: 'string', errorMessage: 'a thrown string' }));
    },
    markdown: (_e, res) => res.end(JSON.stringify({ markdown: '# hi', errorMessage: 'not an error: extra keys' })),
    empty: (_e, res) => res.end(''),
    slow: () => {},
    broken: (_e, res) => {
      res.statusCode = 500;
      res.setHeader('x-amzn-errortype', 'ServiceException:http://internal');
      res.end('{"message":"boom"}');
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url ?? '');
      const route = match && routes[decodeURIComponent(match[1]!)];
      if (!route) {
        res.statusCode = 404;
        res.setHeader('x-amzn-errortype', 'ResourceNotFoundException');
        res.end(JSON.stringify({ Type: 'User', message: `Function not found: ${match?.[1]}` }));
        return;
      }
      route(body, res);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })),
  );
}

describe('Lambda Invoke API targets', () => {
  let api: Awaited<ReturnType<typeof fakeInvokeApi>>;
  let registry: FunctionRegistry;
  before(async () => {
    api = await fakeInvokeApi();
    registry = new FunctionRegistry({
      functions: {
        'arn:aws:lambda:eu-west-1:111122223333:function:report': { invokeUrl: api.base },
        slow: { invokeUrl: `${api.base}/`, timeoutSeconds: 0.3 },
      },
      invokeUrl: api.base,
    });
  });
  after(async () => {
    await registry.close();
    api.server.closeAllConnections();
    await new Promise((r) => api.server.close(r));
  });

  test('POSTs the event to /2015-03-31/functions/{name}/invocations and returns the payload', async () => {
    const outcome = await registry.invoke('arn:aws:lambda:eu-west-1:111122223333:function:report:prod', { name: 'Q3' });
    assert.equal(outcome.ok, true);
    assert.equal(outcome.value, '<p>report for Q3</p>');
    assert.equal(outcome.logs, 'START\nreport ran\nEND\n');
    assert.equal(outcome.awsRequestId, 'req-123');
    const last = api.seen.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.equal(last.url, '/2015-03-31/functions/report/invocations');
    assert.deepEqual(last.body, { name: 'Q3' });
    assert.equal(last.headers['x-amz-invocation-type'], 'RequestResponse');
  });

  test('a function error by X-Amz-Function-Error or by the error document shape', async () => {
    assert.deepEqual((await registry.invoke('flagged', {})).error, {
      type: 'TypeError',
      message: 'flagged failure',
      trace: ['TypeError: flagged failure', '    at x'],
    });
    assert.deepEqual((await registry.invoke('shaped', {})).error, { type: 'Error', message: 'shape only', trace: ['File "x.py"'] });
    assert.deepEqual((await registry.invoke('string', {})).error, { type: 'string', message: 'a thrown string' });
    const notAnError = await registry.invoke('markdown', {});
    assert.equal(notAnError.ok, true, 'an object with other keys is a value, not an error');
    assert.equal((await registry.invoke('empty', {})).value, null);
  });

  test('the top-level invokeUrl serves unlisted endpoints; an unknown function there is FunctionNotFound', async () => {
    const outcome = await registry.invoke('arn:aws:lambda:us-east-1:123456789012:function:nobody', {});
    assert.equal(outcome.error?.type, 'FunctionNotFound');
    assert.match(outcome.error?.message ?? '', /nobody/);
  });

  test('a server error is an error naming the status', async () => {
    const outcome = await registry.invoke('broken', {});
    assert.equal(outcome.error?.type, 'ServiceException');
    assert.match(outcome.error?.message ?? '', /answered 500/);
  });

  test('a target that does not answer in time ends at the timeout', async () => {
    const outcome = await registry.invoke('slow', {});
    assert.deepEqual(outcome.error, { type: 'Sandbox.Timedout', message: 'Task timed out after 0.30 seconds' });
  });

  test('with AWS credentials in the environment the request is signed', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    try {
      const signed = new FunctionRegistry({ functions: {}, invokeUrl: api.base });
      assert.equal((await signed.invoke('arn:aws:lambda:eu-west-1:111122223333:function:report', { name: 'x' })).ok, true);
      const auth = String(api.seen.at(-1)!.headers.authorization);
      assert.match(
        auth,
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/lambda\/aws4_request, SignedHeaders=content-type;host;/,
      );
    } finally {
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test('an unreachable target is TargetUnreachable naming the address', async () => {
    const closed = await fakeInvokeApi();
    const address = closed.base;
    await new Promise((r) => closed.server.close(r));
    const r = new FunctionRegistry({ functions: { gone: { invokeUrl: address } } });
    const outcome = await r.invoke('gone', {});
    assert.equal(outcome.error?.type, 'TargetUnreachable');
    assert.ok(outcome.error?.message.includes(address), outcome.error?.message);
    assert.match(outcome.error?.message ?? '', /ECONNREFUSED/);
  });
});
