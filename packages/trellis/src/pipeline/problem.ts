/** RFC 9457 problem details. Extension members sit beside the standard ones. */
export interface ProblemDetails {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The standard reason phrase for a status, or a generic one. */
export function statusTitle(status: number): string {
  return titles[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Response');
}

/**
 * Builds a problem document.
 *
 * @example
 * ctx.refuse(403, problem(403, 'The grant "orders:write" is required.'));
 */
export function problem(status: number, detail?: string, extensions: Record<string, unknown> = {}): ProblemDetails {
  const doc: ProblemDetails = { type: 'about:blank', title: statusTitle(status), status };
  if (detail !== undefined) doc.detail = detail;
  for (const [key, value] of Object.entries(extensions)) {
    if (key !== 'status') doc[key] = value;
  }
  return doc;
}
