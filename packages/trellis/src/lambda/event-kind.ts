import type { LambdaEventKind } from './events.js';
import { usageError } from '../errors/index.js';

/** An object that is not null and not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Which HTTP front door an event came through, read from the event's own shape; null for anything else.
 * A load balancer's event names its target group (`requestContext.elb`); payload 2.0 has `version: "2.0"`
 * and `requestContext.http` (a function URL's domain is `*.lambda-url.*`); payload 1.0 has `httpMethod`
 * and `path`.
 */
export function httpEventKind(event: unknown): LambdaEventKind | null {
  if (!isRecord(event)) return null;
  const rc = event.requestContext;
  if (!isRecord(rc)) return null;
  if (isRecord(rc.elb)) return typeof event.httpMethod === 'string' && typeof event.path === 'string' ? 'alb' : null;
  if (event.version === '2.0') {
    if (!isRecord(rc.http) || typeof rc.http.method !== 'string' || typeof event.rawPath !== 'string') return null;
    return typeof rc.domainName === 'string' && rc.domainName.includes('.lambda-url.') ? 'function-url' : 'api-gateway-http';
  }
  return typeof event.httpMethod === 'string' && typeof event.path === 'string' ? 'api-gateway-rest' : null;
}

/** The error for an event that is not an HTTP event, naming the kinds that are answered. */
export function notAnHttpEvent(event: unknown): TypeError {
  const shape = isRecord(event)
    ? `an object with the fields ${Object.keys(event).slice(0, 8).join(', ') || '(none)'}`
    : event === null
      ? 'null'
      : `a ${typeof event}`;
  return usageError(
    'TRELLIS_INVALID_EVENT',
    `The Lambda handler got ${shape}, which is not an event it answers. It answers API Gateway REST API events ` +
      '(payload 1.0: httpMethod, path, requestContext), HTTP API and function URL events (payload 2.0: version "2.0", ' +
      'rawPath, requestContext.http), Application Load Balancer events (requestContext.elb), and CloudWatch ' +
      'custom-widget events (widgetContext, or describe: true).',
  );
}
