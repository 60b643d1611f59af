/**
 * A function behind the Lambda Invoke HTTP API (`sam local start-lambda`, LocalStack, the runtime interface
 * emulator): `POST {base}/2015-03-31/functions/{name}/invocations`. A function error is recognised by the
 * `X-Amz-Function-Error` header or, for servers that omit it, by a body shaped like Lambda's error document.
 * With AWS credentials in the environment, requests are signed (SigV4), so a deployed function works too.
 */
import { fromErrorDocument } from './child-environment.js';
import { InvocationStart } from './invocation-start.js';
import { isRecord } from './json-value.js';
import { timeoutError, type FunctionIdentity } from './lambda-context.js';
import { MAX_RESPONSE_BYTES, readCapped, responseTooLarge } from './payload-limit.js';
import { credentialsFromEnvironment, signRequest, type AwsCredentials } from './sigv4.js';
import type { FunctionTarget, InvokeOptions, InvokeOutcome } from './types.js';

const ERROR_DOCUMENT_KEYS = new Set(['errorType', 'errorMessage', 'trace', 'stackTrace', 'requestId', 'cause']);

/** True for `{ errorMessage, errorType?, trace?|stackTrace?, requestId? }` and nothing else. */
function isErrorDocument(value: unknown): value is { errorMessage: string; errorType?: string } {
  return (
    isRecord(value) &&
    typeof value.errorMessage === 'string' &&
    (value.errorType === undefined || typeof value.errorType === 'string') &&
    Object.keys(value).every((k) => ERROR_DOCUMENT_KEYS.has(k))
  );
}

function parsePayload(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** Invokes one function through an Invoke API base URL. */
export class InvokeApiTarget implements FunctionTarget {
  private readonly url: string;

  private readonly region: string;

  constructor(
    private readonly identity: FunctionIdentity,
    private readonly baseUrl: string,
    private readonly credentials: AwsCredentials | undefined = credentialsFromEnvironment(process.env),
  ) {
    this.url = `${baseUrl.replace(/\/+$/, '')}/2015-03-31/functions/${encodeURIComponent(identity.name)}/invocations`;
    this.region = /^lambda(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(new URL(baseUrl).hostname)?.[1] ?? identity.region;
  }

  get name(): string {
    return this.identity.name;
  }

  async invoke(event: unknown, options: InvokeOptions = {}): Promise<InvokeOutcome> {
    const start = new InvocationStart(options);
    const outcome = start.outcome.bind(start);
    let body: string;
    try {
      body = JSON.stringify(event ?? null);
    } catch (error) {
      return outcome({
        ok: false,
        error: { type: 'InvalidRequestContentException', message: `Could not serialize the event: ${(error as Error).message}` },
      });
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.identity.timeoutSeconds * 1000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    try {
      let headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-amz-invocation-type': 'RequestResponse',
        'x-amz-log-type': 'Tail',
      };
      if (this.credentials) {
        headers = signRequest({
          method: 'POST',
          url: new URL(this.url),
          headers,
          body,
          region: this.region,
          service: 'lambda',
          credentials: this.credentials,
        });
      }
      // A redirect could carry the signed request to another host: never follow one.
      const response = await fetch(this.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
      const requestId = response.headers.get('x-amzn-requestid') ?? start.awsRequestId;
      if (response.status >= 300 && response.status <= 399) {
        await response.body?.cancel().catch(() => {});
        const where = response.headers.get('location');
        return outcome(
          {
            ok: false,
            error: {
              type: 'TargetUnreachable',
              message: `${this.url} answered ${response.status} (a redirect${where ? ` to ${where}` : ''}); the harness does not follow redirects`,
            },
          },
          '',
          requestId,
        );
      }
      const text = await readCapped(response, MAX_RESPONSE_BYTES);
      if (text === undefined) return outcome({ ok: false, error: responseTooLarge() }, '', requestId);
      const logHeader = response.headers.get('x-amz-log-result');
      const logs = logHeader ? Buffer.from(logHeader, 'base64').toString('utf8') : '';
      const payload = parsePayload(text);
      if (response.status === 404) {
        const message = isRecord(payload) ? String(payload.message ?? payload.Message ?? text) : text;
        return outcome(
          { ok: false, error: { type: 'FunctionNotFound', message: `${this.url} answered 404: ${message}` } },
          logs,
          requestId,
        );
      }
      if (response.status < 200 || response.status > 299) {
        const type = response.headers.get('x-amzn-errortype')?.split(':')[0] ?? `HTTP ${response.status}`;
        return outcome(
          { ok: false, error: { type, message: `${this.url} answered ${response.status}: ${text.slice(0, 1000)}` } },
          logs,
          requestId,
        );
      }
      if (response.headers.has('x-amz-function-error') || isErrorDocument(payload)) {
        const doc =
          typeof payload === 'object' && payload !== null
            ? payload
            : { errorType: response.headers.get('x-amz-function-error') ?? 'Unhandled', errorMessage: String(payload) };
        return outcome({ ok: false, error: fromErrorDocument(doc) }, logs, requestId);
      }
      return outcome({ ok: true, value: payload }, logs, requestId);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.signal.aborted) return outcome({ ok: false, error: timeoutError(this.identity.timeoutSeconds) });
      return outcome({
        ok: false,
        error: {
          type: 'TargetUnreachable',
          message: `the Invoke API at ${this.baseUrl} is unreachable (${describeCause(error)}) for ${this.url}`,
        },
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {}
}
