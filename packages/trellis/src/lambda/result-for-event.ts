import { statusTitle } from '../index.js';
import type { RecordedResponse } from '../index.js';
import { bodyIsBinary } from './binary-body.js';
import type { LambdaEventKind, LambdaHttpEvent, LambdaHttpResult } from './events.js';

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Translates a recorded response into what the front door expects back:
 * - payload 2.0 (HTTP API, function URL): `headers` (repeated values joined with `, `) and each
 *   `Set-Cookie` in `cookies`;
 * - payload 1.0: `headers` for single values, `multiValueHeaders` for `Set-Cookie` and every repeated header;
 * - load balancer: `multiValueHeaders` when the target group sends them (the event has them), else
 *   `headers` (where only the first `Set-Cookie` fits: turn multi-value headers on to send several; `lostCookies`
 *   is told how many the response set when it loses some), and `statusDescription`.
 */
export function resultForEvent(
  kind: LambdaEventKind,
  event: LambdaHttpEvent,
  recorded: RecordedResponse,
  isBinary: (contentType: string) => boolean,
  lostCookies?: (cookies: number) => void,
): LambdaHttpResult {
  const { statusCode, headers, rawBody } = recorded;
  const binary = bodyIsBinary(rawBody, first(headers['content-type']), first(headers['content-encoding']), isBinary);
  const body = rawBody.length === 0 ? '' : rawBody.toString(binary ? 'base64' : 'utf8');
  if (kind === 'api-gateway-http' || kind === 'function-url') {
    const single: Record<string, string> = {};
    let cookies: string[] | undefined;
    for (const name in headers) {
      const value = headers[name]!;
      if (name === 'set-cookie') cookies = Array.isArray(value) ? [...value] : [value];
      else single[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const result: LambdaHttpResult = { statusCode, headers: single, body, isBase64Encoded: binary };
    if (cookies) result.cookies = cookies;
    return result;
  }
  if (kind === 'api-gateway-rest') {
    const single: Record<string, string> = {};
    const multi: Record<string, string[]> = {};
    for (const name in headers) {
      const value = headers[name]!;
      if (Array.isArray(value)) multi[name] = [...value];
      else if (name === 'set-cookie') multi[name] = [value];
      else single[name] = value;
    }
    return { statusCode, headers: single, multiValueHeaders: multi, body, isBase64Encoded: binary };
  }
  // node:http's reason phrases, loaded only for an Application Load Balancer's event (the one that asks for them).
  const statusDescription = `${statusCode} ${statusTitle(statusCode)}`;
  if ('multiValueHeaders' in event && event.multiValueHeaders) {
    const multi: Record<string, string[]> = {};
    for (const name in headers) {
      const value = headers[name]!;
      multi[name] = Array.isArray(value) ? [...value] : [value];
    }
    return { statusCode, statusDescription, multiValueHeaders: multi, body, isBase64Encoded: binary };
  }
  const single: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name]!;
    if (!Array.isArray(value)) single[name] = value;
    else if (name !== 'set-cookie') single[name] = value.join(', ');
    else {
      single[name] = value[0]!;
      if (value.length > 1) lostCookies?.(value.length);
    }
  }
  return { statusCode, statusDescription, headers: single, body, isBase64Encoded: binary };
}
