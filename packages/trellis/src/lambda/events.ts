/**
 * The HTTP events Lambda receives, as AWS documents them: only the fields Trellis reads are typed, and every
 * field AWS may leave out is optional (a test event typed by hand in the console often lacks several).
 */

import type { LambdaContext } from '../widgets/index.js';

/**
 * The Lambda context a handler may be given: the runtime's context, any field of it missing (a test may pass
 * `{}`, or nothing).
 */
export type GivenLambdaContext = Partial<LambdaContext>;

/** An API Gateway authorizer's output as the event carries it. */
export interface AuthorizerFacts {
  /** Cognito user pool claims (REST), or a JWT authorizer's claims (HTTP API). */
  readonly claims?: Record<string, unknown>;
  /** A JWT authorizer's scopes (HTTP API). */
  readonly scopes?: readonly string[];
  /** What a Lambda authorizer returned as its context (REST: the `authorizer` object itself). */
  readonly lambda?: Record<string, unknown>;
  /** IAM authorization facts (HTTP API, function URL with AWS_IAM). */
  readonly iam?: Record<string, unknown>;
  /** The principal a REST Lambda authorizer named. */
  readonly principalId?: string;
}

/** API Gateway REST API, or an HTTP API integration using payload format 1.0. */
export interface ApiGatewayRestEvent {
  readonly version?: '1.0';
  readonly resource?: string;
  readonly path: string;
  readonly httpMethod: string;
  readonly headers?: Record<string, string | undefined> | null;
  readonly multiValueHeaders?: Record<string, string[] | undefined> | null;
  readonly queryStringParameters?: Record<string, string | undefined> | null;
  readonly multiValueQueryStringParameters?: Record<string, string[] | undefined> | null;
  readonly pathParameters?: Record<string, string | undefined> | null;
  readonly stageVariables?: Record<string, string | undefined> | null;
  readonly requestContext: {
    readonly accountId?: string;
    readonly apiId?: string;
    readonly stage?: string;
    readonly requestId?: string;
    readonly path?: string;
    readonly domainName?: string;
    readonly identity?: { readonly sourceIp?: string; readonly userAgent?: string | null; readonly [key: string]: unknown };
    readonly authorizer?: (Record<string, unknown> & { readonly claims?: Record<string, unknown>; readonly principalId?: string }) | null;
    readonly [key: string]: unknown;
  };
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
}

/** API Gateway HTTP API (payload format 2.0), and Lambda function URLs (the same format). */
export interface ApiGatewayHttpEvent {
  readonly version: '2.0';
  readonly routeKey?: string;
  readonly rawPath: string;
  readonly rawQueryString?: string;
  readonly cookies?: readonly string[];
  readonly headers?: Record<string, string | undefined>;
  readonly queryStringParameters?: Record<string, string | undefined>;
  readonly pathParameters?: Record<string, string | undefined>;
  readonly stageVariables?: Record<string, string | undefined>;
  readonly requestContext: {
    readonly accountId?: string;
    readonly apiId?: string;
    readonly domainName?: string;
    readonly stage?: string;
    readonly requestId?: string;
    readonly routeKey?: string;
    readonly http: {
      readonly method: string;
      readonly path?: string;
      readonly protocol?: string;
      readonly sourceIp?: string;
      readonly userAgent?: string;
    };
    readonly authorizer?: {
      readonly jwt?: { readonly claims?: Record<string, unknown>; readonly scopes?: readonly string[] | null };
      readonly lambda?: Record<string, unknown> | null;
      readonly iam?: Record<string, unknown>;
    };
    readonly [key: string]: unknown;
  };
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
}

/** An Application Load Balancer target group request (multi-value headers on or off). */
export interface AlbEvent {
  readonly requestContext: { readonly elb: { readonly targetGroupArn?: string } };
  readonly httpMethod: string;
  readonly path: string;
  readonly headers?: Record<string, string | undefined>;
  readonly multiValueHeaders?: Record<string, string[] | undefined>;
  readonly queryStringParameters?: Record<string, string | undefined>;
  readonly multiValueQueryStringParameters?: Record<string, string[] | undefined>;
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
}

/** Every HTTP event Trellis answers. */
export type LambdaHttpEvent = ApiGatewayRestEvent | ApiGatewayHttpEvent | AlbEvent;

/** What the handler returns to API Gateway (1.0 and 2.0), a function URL, or a load balancer. */
export interface LambdaHttpResult {
  statusCode: number;
  /** ALB only: `200 OK`. */
  statusDescription?: string;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  /** Payload 2.0 only: each becomes a `Set-Cookie` header. */
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** Which front door an event came through. */
export type LambdaEventKind = 'api-gateway-rest' | 'api-gateway-http' | 'function-url' | 'alb';
