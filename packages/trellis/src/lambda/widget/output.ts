// A finished response as widget output: what the route returned, or a readable message for a refusal or error.
import { failure, statusTitle } from '../../index.js';
import type { OutgoingResponse, ProblemDetails } from '../../index.js';
import { html, type SafeHtml } from '../../widgets/index.js';

function text(body: OutgoingResponse['body']): string {
  if (body === null || !(typeof body === 'string' || Buffer.isBuffer(body))) return '';
  return typeof body === 'string' ? body : body.toString('utf8');
}

function mediaType(response: OutgoingResponse): string {
  const value = response.headers.get('content-type');
  return (Array.isArray(value) ? String(value[0]) : String(value ?? '')).split(';')[0]!.trim().toLowerCase();
}

const isJson = (type: string): boolean => type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));

function problemOf(response: OutgoingResponse): Partial<ProblemDetails> & Record<string, unknown> {
  if (!isJson(mediaType(response))) return {};
  try {
    const parsed: unknown = JSON.parse(text(response.body));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function seconds(n: number): string {
  return n === 1 ? '1 second' : `${n} seconds`;
}

/**
 * The message a dashboard shows for a problem, the one way the widget door shows every failure: status and
 * title, the detail, for a 429 when to try again, the stack only when the app put one in the problem
 * (development mode), and the problem's `code` in `data-code` (kept by the console, shown by nothing).
 *
 * @example
 * messageHtml(failure('TRELLIS_RATE_LIMITED', 'The limit "default" allows 5 requests per 60 seconds.'), 12).toString();
 */
export function messageHtml(problem: ProblemDetails, retryAfter?: number): SafeHtml {
  const { status, title, detail, code, stack } = problem;
  const retry = retryAfter !== undefined ? html`<p class="trellis-widget-retry">Try again in ${seconds(retryAfter)}.</p>` : '';
  const trace = typeof stack === 'string' && stack ? html`<pre class="trellis-widget-stack">${stack}</pre>` : '';
  const codeAttribute = typeof code === 'string' && code ? html` data-code="${code}"` : html``;
  return html`<div class="trellis-widget-error" role="alert"${codeAttribute}><h4>${status} ${title}</h4>${detail ? html`<p>${detail}</p>` : ''}${retry}${trace}</div>`;
}

function retryAfterOf(response: OutgoingResponse, problem: Record<string, unknown>): number | undefined {
  const header = Number(response.headers.get('retry-after'));
  if (Number.isFinite(header) && header >= 0) return Math.ceil(header);
  return typeof problem.retryAfter === 'number' ? Math.ceil(problem.retryAfter) : undefined;
}

/**
 * What the widget function returns for a response. A success becomes widget output as the console reads it:
 * JSON is returned as its value (a JSON string is HTML, `{ markdown }` is Markdown, anything else is shown
 * as JSON), text as HTML, no body as nothing; every other status becomes an HTML message.
 */
export function widgetOutput(response: OutgoingResponse): unknown {
  const status = response.status;
  if (status >= 200 && status < 300) {
    if (response.body === null || text(response.body).length === 0) return '';
    const type = mediaType(response);
    if (isJson(type)) {
      try {
        return JSON.parse(text(response.body));
      } catch {
        return messageHtml(failure('TRELLIS_RESPONSE_UNWRITABLE', 'The route answered JSON that does not parse.')).toString();
      }
    }
    if (type === '' || type.startsWith('text/')) return text(response.body);
    return messageHtml(
      failure('TRELLIS_RESPONSE_UNWRITABLE', `The route answered ${type}, which a widget cannot show; return HTML, { markdown } or JSON.`),
    ).toString();
  }
  const problem = problemOf(response);
  const title = typeof problem.title === 'string' ? problem.title : statusTitle(status);
  let detail = typeof problem.detail === 'string' ? problem.detail : undefined;
  if (status >= 300 && status < 400)
    detail ??= `The route redirects to ${String(response.headers.get('location') ?? 'another location')}, which a widget cannot follow.`;
  const shown: ProblemDetails = { ...problem, status, title };
  if (detail === undefined) delete shown.detail;
  else shown.detail = detail;
  return messageHtml(shown, status === 429 ? retryAfterOf(response, problem) : undefined).toString();
}
