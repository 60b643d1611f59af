/** RFC 9457 problem details. Extension members sit beside the standard ones. */
export interface ProblemDetails {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

/** The one status table: every reason phrase the framework writes (problem titles, widget messages, load balancer descriptions). */
const titles: Record<number, string> = {
  100: 'Continue',
  101: 'Switching Protocols',
  103: 'Early Hints',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

/** The standard reason phrase for a status, or a generic one. */
export function statusTitle(status: number): string {
  return titles[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Response');
}

/**
 * Builds a problem document.
 *
 * @example
 * ctx.refuse(problem(403, 'The grant "orders:write" is required.'));
 */
export function problem(status: number, detail?: string, extensions: Record<string, unknown> = {}): ProblemDetails {
  const doc: ProblemDetails = { type: 'about:blank', title: statusTitle(status), status };
  if (detail !== undefined) doc.detail = detail;
  for (const [key, value] of Object.entries(extensions)) {
    if (key !== 'status') doc[key] = value;
  }
  return doc;
}

/**
 * Every failure the framework answers by itself, with a stable code and its status. The code goes in the
 * problem document (`code`), so clients and tests can tell failures apart without parsing `detail`.
 */
export const FAILURES = {
  TRELLIS_UNPARSEABLE_REQUEST: 400,
  TRELLIS_REQUEST_TIMEOUT: 408,
  TRELLIS_BAD_TARGET: 400,
  TRELLIS_NOT_FOUND: 404,
  TRELLIS_METHOD_NOT_ALLOWED: 405,
  TRELLIS_URL_TOO_LONG: 414,
  TRELLIS_HEADERS_TOO_LARGE: 431,
  TRELLIS_BODY_TOO_LARGE: 413,
  TRELLIS_MULTIPART_LIMIT: 413,
  TRELLIS_UNSUPPORTED_MEDIA_TYPE: 415,
  TRELLIS_INVALID_JSON: 400,
  TRELLIS_INVALID_UTF8: 400,
  TRELLIS_INVALID_BASE64: 400,
  TRELLIS_INVALID_MULTIPART: 400,
  TRELLIS_CLIENT_ABORTED: 400,
  TRELLIS_VALIDATION_FAILED: 400,
  TRELLIS_UNAUTHENTICATED: 401,
  TRELLIS_INVALID_CREDENTIALS: 401,
  TRELLIS_AUTHENTICATION_BROKEN: 500,
  TRELLIS_MISSING_GRANT: 403,
  TRELLIS_CORS_REFUSED: 403,
  TRELLIS_PRECONDITION_FAILED: 412,
  TRELLIS_RATE_LIMITED: 429,
  TRELLIS_RATE_LIMIT_UNAVAILABLE: 503,
  TRELLIS_RATE_LIMIT_BROKEN: 500,
  TRELLIS_HANDLER_FAILED: 500,
  TRELLIS_PIPELINE_FAILED: 500,
  TRELLIS_RESPONSE_UNWRITABLE: 500,
  TRELLIS_RESPONSE_TOO_LARGE: 500,
} as const;
export type FailureCode = keyof typeof FAILURES;

/**
 * A problem document for one of the framework's own failures: its status, standard title and stable `code`.
 * `status` overrides the table's (a validation failure configured to answer 422, a store's own 5xx).
 *
 * @example
 * failure('TRELLIS_NOT_FOUND', 'No handler for GET /x.'); // { type: 'about:blank', title: 'Not Found', status: 404, detail: '…', code: 'TRELLIS_NOT_FOUND' }
 */
export function failure(
  code: FailureCode,
  detail: string,
  extensions: Record<string, unknown> = {},
  status: number = FAILURES[code],
): ProblemDetails {
  return problem(status, detail, { code, ...extensions });
}
