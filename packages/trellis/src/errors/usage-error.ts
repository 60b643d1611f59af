/**
 * Errors in how the framework is used — settings that cannot be right, a function called with an argument it
 * cannot take, a Lambda event of the wrong kind — each with a stable `code` a program can match. The message
 * says what would be right; the code and the error's class (TypeError, RangeError or Error) stay from release to
 * release. Failures of a request are apart: they are answered, with the codes of the pipeline's table.
 */
export const USAGE_ERRORS = {
  TRELLIS_INVALID_APP_OPTIONS: 'createApp() options (bodyLimit, maxUrlLength, trustProxy, cookieSecrets) or onError() arguments',
  TRELLIS_APP_BUILT: 'a route or filter added after the app was built (by listen(), inject(), build() or a request)',
  TRELLIS_APP_LISTENING: 'listen() called on an app that is already listening',
  TRELLIS_INVALID_ROUTE:
    'a path the router cannot take, a route decorator on the wrong member, a handler that is not a function, or a controller without routes',
  TRELLIS_DUPLICATE_ROUTE: 'two handlers for the same method and paths',
  TRELLIS_INVALID_ANNOTATION:
    'an annotation with settings that cannot be right (Authorize, Cache, Validate, Body, Describe), or one on something it cannot decorate',
  TRELLIS_CONFLICTING_ANNOTATIONS:
    'annotations of one handler that contradict each other: two rate limits of one name with different settings, one budget spent twice, Describe twice with different texts',
  TRELLIS_INVALID_RATE_LIMIT: 'RateLimit or SkipRateLimit settings that cannot be right, or a window longer than a store can keep',
  TRELLIS_INVALID_RATE_LIMIT_CONFIGURATION: 'RateLimitConfiguration or rateLimitMetrics options that cannot be right',
  TRELLIS_INVALID_STORE_OPTIONS:
    "a rate-limit store's options (client, url, keyPrefix, failureMode, limits, clock) that cannot be right, or its clock answering something that is not a time",
  TRELLIS_INVALID_STORE_CALL: "a rate-limit store's acquire() called with a partition, policy or cost it cannot take",
  TRELLIS_MISSING_DEPENDENCY: 'an optional package the feature needs (ioredis or redis, @aws-sdk/client-dynamodb) is not installed',
  TRELLIS_INVALID_SERVICE: 'a service registration without a token or factory, or of an unknown registration type',
  TRELLIS_INVALID_FILTER: 'a filter without a name, numeric order or run function, or with an order kept for the framework',
  TRELLIS_INVALID_AUTH_OPTIONS: 'ApiKeyAuthenticator or JwtBearerAuthenticator options that cannot be right',
  TRELLIS_JWT_AUDIENCE_REQUIRED: 'a JwtBearerAuthenticator with no audience and no allowAnyAudience: true, or both',
  TRELLIS_INVALID_CORS_OPTIONS: 'CORS settings that cannot be right',
  TRELLIS_CORS_ANY_ORIGIN_WITH_CREDENTIALS: "CORS with origins: '*' and credentials: true",
  TRELLIS_INVALID_LAMBDA_OPTIONS: 'lambdaHandler, widget-event, routeAction or WidgetRateLimitPartitioner options that cannot be right',
  TRELLIS_INVALID_EVENT:
    'a Lambda event the handler cannot take: not an HTTP or custom-widget event, a field of the wrong type, or a kind that cannot stream',
  TRELLIS_INVALID_OPENAPI_OPTIONS: 'createOpenApiDocument or openApiRoute options that cannot be right',
  TRELLIS_INVALID_COOKIE:
    'a cookie set with a name, value or attributes browsers would drop (a __Host- or __Secure- name, SameSite=None or Partitioned without Secure), or signed in an app without cookieSecrets',
  TRELLIS_INVALID_ARGUMENT:
    'a function called with an argument it cannot take: a status out of range, a server-sent event field with a line break, chart data of the wrong shape, a ManualClock going back',
} as const;

/** The stable `code` of an error in how the framework is used. */
export type UsageErrorCode = keyof typeof USAGE_ERRORS;

type ErrorClass = TypeErrorConstructor | RangeErrorConstructor | ErrorConstructor;

/**
 * The error to throw for a use of the framework that cannot be right: an instance of `Class` (TypeError unless
 * said) with `message` and the stable `code`.
 *
 * @example
 * throw usageError('TRELLIS_INVALID_APP_OPTIONS', `bodyLimit must be a whole number of bytes, got ${limit}.`, RangeError);
 */
export function usageError<C extends ErrorClass = TypeErrorConstructor>(
  code: UsageErrorCode,
  message: string,
  Class: C = TypeError as C,
  cause?: unknown,
): InstanceType<C> & { readonly code: UsageErrorCode } {
  const error = (cause === undefined ? new Class(message) : new Class(message, { cause })) as InstanceType<C>;
  return Object.assign(error, { code });
}
