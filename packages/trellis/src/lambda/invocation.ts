import type { ExecutionContext } from '../index.js';
import type {
  ApiGatewayHttpEvent,
  ApiGatewayRestEvent,
  AuthorizerFacts,
  GivenLambdaContext,
  LambdaEventKind,
  LambdaHttpEvent,
} from './events.js';
import { RequestItem } from './request-item.js';

/**
 * What the Lambda invocation says about a request, beyond HTTP: read it with `lambdaInvocation(ctx)` in a
 * handler, filter, authenticator or rate-limit partitioner. The caller's address is also
 * `ctx.request.remoteAddress` (and `clientAddress`).
 */
export interface LambdaInvocation {
  readonly kind: LambdaEventKind;
  /** The event as Lambda delivered it. */
  readonly event: LambdaHttpEvent;
  /** The Lambda context object (an empty object when the handler was called without one). */
  readonly context: GivenLambdaContext;
  /** The caller's address as the gateway saw it; for a load balancer, the last `X-Forwarded-For` entry. */
  readonly sourceIp: string | undefined;
  /** The gateway's id for the request (`requestContext.requestId`); undefined behind a load balancer. */
  readonly requestId: string | undefined;
  /** Lambda's id for the invocation (`context.awsRequestId`). */
  readonly awsRequestId: string | undefined;
  /** The API Gateway stage (`$default` for HTTP APIs without named stages and for function URLs). */
  readonly stage: string | undefined;
  /** The API Gateway stage variables. */
  readonly stageVariables: Readonly<Record<string, string | undefined>> | undefined;
  /** What an API Gateway authorizer established: claims, scopes, a Lambda authorizer's context, IAM facts. */
  readonly authorizer: AuthorizerFacts | undefined;
}

/** How the Lambda HTTP doors hand the invocation to the pipeline. */
export const invocationItem = new RequestItem<LambdaInvocation>('trellis.lambda.invocation');

/**
 * The Lambda invocation behind a request, or undefined when the request did not come through Lambda
 * (inject(), listen()).
 *
 * @example
 * const claims = lambdaInvocation(ctx)?.authorizer?.claims; // an HTTP API JWT authorizer's claims
 * const caller = lambdaInvocation(ctx)?.sourceIp;           // the address API Gateway saw
 */
export function lambdaInvocation(ctx: ExecutionContext): LambdaInvocation | undefined {
  return invocationItem.of(ctx);
}

function restAuthorizer(event: ApiGatewayRestEvent): AuthorizerFacts | undefined {
  const authorizer = event.requestContext.authorizer;
  if (!authorizer) return undefined;
  const { claims, principalId, ...rest } = authorizer;
  const facts: { claims?: Record<string, unknown>; principalId?: string; lambda?: Record<string, unknown> } = {};
  if (claims && typeof claims === 'object') facts.claims = claims;
  if (typeof principalId === 'string') facts.principalId = principalId;
  if (Object.keys(rest).length > 0) facts.lambda = rest;
  return facts;
}

function httpAuthorizer(event: ApiGatewayHttpEvent): AuthorizerFacts | undefined {
  const authorizer = event.requestContext.authorizer;
  if (!authorizer) return undefined;
  const facts: {
    claims?: Record<string, unknown>;
    scopes?: readonly string[];
    lambda?: Record<string, unknown>;
    iam?: Record<string, unknown>;
  } = {};
  if (authorizer.jwt?.claims) facts.claims = authorizer.jwt.claims;
  if (authorizer.jwt?.scopes) facts.scopes = authorizer.jwt.scopes;
  if (authorizer.lambda) facts.lambda = authorizer.lambda;
  if (authorizer.iam) facts.iam = authorizer.iam;
  return facts;
}

/** Reads the invocation facts of an event of a known kind. */
export function makeLambdaInvocation(
  kind: LambdaEventKind,
  event: LambdaHttpEvent,
  context: GivenLambdaContext,
  sourceIp: string | undefined,
): LambdaInvocation {
  const awsRequestId = typeof context.awsRequestId === 'string' ? context.awsRequestId : undefined;
  const common = { kind, event, context, sourceIp, awsRequestId };
  if (kind === 'alb') return { ...common, requestId: undefined, stage: undefined, stageVariables: undefined, authorizer: undefined };
  if (kind === 'api-gateway-rest') {
    const rest = event as ApiGatewayRestEvent;
    const { requestId, stage } = rest.requestContext;
    return { ...common, requestId, stage, stageVariables: rest.stageVariables ?? undefined, authorizer: restAuthorizer(rest) };
  }
  const http = event as ApiGatewayHttpEvent;
  const { requestId, stage } = http.requestContext;
  return { ...common, requestId, stage, stageVariables: http.stageVariables, authorizer: httpAuthorizer(http) };
}
