import type {
  FunctionInfo,
  ActionEntry,
  CancelledAction,
  DashboardState,
  DescribeResult,
  RefreshResult,
  StateInput,
  StateUpdate,
  WidgetReading,
  WidgetSummary,
} from '../dashboard/index.js';
import type { Finding } from '../lint/index.js';
import type { ProblemDetails } from 'trellis';
import type { ChangesAnswer } from './change-feed.js';

/** A dashboard as creation returns it. */
export interface CreatedDashboard {
  id: string;
  name: string;
  widgets: WidgetSummary[];
}

/** A dashboard with its state and widgets. */
export interface DashboardDetails extends CreatedDashboard {
  state: DashboardState;
}

/** Options of a {@link HarnessClient}. */
export interface HarnessClientOptions {
  /** Replaces the global `fetch` (to record or check responses, or to add headers). */
  fetch?: typeof fetch;
  /** The harness's token, sent as `Authorization: Bearer <token>` (needed when it listens beyond loopback). */
  token?: string;
}

/**
 * A response of the harness that is not a success: `status` and the problem details it carried.
 *
 * @example
 * try { await client.readWidget(id, 9); } catch (e) { if (e instanceof HarnessApiError) e.status; // 404 }
 */
export class HarnessApiError extends Error {
  override readonly name = 'HarnessApiError';
  constructor(
    readonly status: number,
    readonly problem: ProblemDetails,
  ) {
    super(`${status} ${problem.title}${problem.detail ? `: ${problem.detail}` : ''}`);
  }
}

type WidgetRef = number | string;

/**
 * A small typed client of the harness HTTP API.
 *
 * @example
 * const client = new HarnessClient('http://127.0.0.1:4600');
 * const { id } = await client.createDashboard({ widgets: [{ type: 'custom', properties: { endpoint: 'hello' } }] });
 * await client.putState(id, { theme: 'dark' });
 * const widget = await client.readWidget(id, 0);
 * const greet = await client.findAction(id, 0, 'Greet');
 * const after = await client.runAction(id, 0, greet.index, { forms: { name: 'Ada' } });
 */
export class HarnessClient {
  readonly baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #auth: Record<string, string>;

  constructor(baseUrl: string, options: HarnessClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#auth = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  }

  /** Loads a dashboard from its JSON text (kept exactly) or an object (serialised with two-space indent). */
  createDashboard(dashboard: string | object, options: { name?: string } = {}): Promise<CreatedDashboard> {
    const text = typeof dashboard === 'string' ? dashboard : JSON.stringify(dashboard, null, 2);
    const query = options.name === undefined ? '' : `?name=${encodeURIComponent(options.name)}`;
    return this.#json('POST', `/api/dashboards${query}`, text);
  }

  listDashboards(): Promise<Array<{ id: string; name: string }>> {
    return this.#json('GET', '/api/dashboards');
  }

  getDashboard(id: string): Promise<DashboardDetails> {
    return this.#json('GET', this.#dash(id));
  }

  /** The exact text the dashboard was loaded from. */
  async getDashboardSource(id: string): Promise<string> {
    return (await this.#send('GET', `${this.#dash(id)}/source`)).text();
  }

  /**
   * Watch mode's changes: without `after`, the latest change number at once; with it, the changes after it,
   * waiting up to `waitSeconds` (default 25) for the next.
   *
   * @example
   * const { seq } = await client.changes();
   * const next = await client.changes(seq, 10); // after editing a widget's file
   */
  changes(after?: number, waitSeconds?: number): Promise<ChangesAnswer> {
    const query = new URLSearchParams();
    if (after !== undefined) query.set('after', String(after));
    if (waitSeconds !== undefined) query.set('wait', String(waitSeconds));
    const text = query.toString();
    return this.#json('GET', `/api/changes${text ? `?${text}` : ''}`);
  }

  async deleteDashboard(id: string): Promise<void> {
    await this.#send('DELETE', this.#dash(id));
  }

  getState(id: string): Promise<DashboardState> {
    return this.#json('GET', `${this.#dash(id)}/state`);
  }

  putState(id: string, state: StateInput): Promise<StateUpdate> {
    return this.#json('PUT', `${this.#dash(id)}/state`, state);
  }

  readWidget(id: string, wid: WidgetRef): Promise<WidgetReading> {
    return this.#json('GET', this.#widget(id, wid));
  }

  listActions(id: string, wid: WidgetRef): Promise<ActionEntry[]> {
    return this.#json('GET', `${this.#widget(id, wid)}/actions`);
  }

  describeWidget(id: string, wid: WidgetRef): Promise<DescribeResult> {
    return this.#json('GET', `${this.#widget(id, wid)}/describe`);
  }

  /**
   * A custom widget as a PNG, drawn as the harness page draws it (`GET …/widgets/{wid}/image`). Without a
   * browser on the harness's machine this throws HarnessApiError 503 (`problem.code`
   * `TRELLIS_IMAGE_BROWSER_UNAVAILABLE`), whose detail says what to install.
   *
   * @example
   * await client.putState(id, { theme: 'dark' });
   * const png = await client.widgetImage(id, 0, { scale: 2 });
   */
  async widgetImage(
    id: string,
    wid: WidgetRef,
    options: { theme?: 'light' | 'dark'; width?: number; height?: number; scale?: number } = {},
  ): Promise<Uint8Array> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options)) if (value !== undefined) query.set(name, String(value));
    const text = query.toString();
    const res = await this.#send('GET', `${this.#widget(id, wid)}/image${text ? `?${text}` : ''}`);
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * The action whose text is exactly `text` after whitespace normalisation (or that matches a RegExp).
   * Throws when none or several match, listing the candidates.
   */
  async findAction(id: string, wid: WidgetRef, text: string | RegExp): Promise<ActionEntry> {
    const actions = await this.listActions(id, wid);
    const wanted = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : text;
    const found = actions.filter((a) => (typeof wanted === 'string' ? a.text === wanted : wanted.test(a.text)));
    if (found.length === 1) return found[0]!;
    const candidates = actions.map((a) => `#${a.index} ${JSON.stringify(a.text)}`).join(', ') || 'none';
    throw new Error(`${found.length === 0 ? 'No' : 'More than one'} action matches ${String(wanted)}; candidates: ${candidates}`);
  }

  runAction(
    id: string,
    wid: WidgetRef,
    index: number,
    body: { forms?: Record<string, string | string[]>; confirm?: boolean } = {},
  ): Promise<WidgetReading | CancelledAction> {
    return this.#json('POST', `${this.#widget(id, wid)}/actions/${index}`, body);
  }

  refresh(id: string, mode?: 'auto' | 'manual'): Promise<RefreshResult> {
    return this.#json('POST', `${this.#dash(id)}/refresh`, mode ? { mode } : {});
  }

  async lint(html: string): Promise<Finding[]> {
    const res = await this.#send('POST', '/api/lint', html, 'text/html; charset=utf-8');
    return ((await res.json()) as { findings: Finding[] }).findings;
  }

  /** The configured functions: which got real AWS credentials, an endpoint, setup modules. */
  listFunctions(): Promise<FunctionInfo[]> {
    return this.#json('GET', '/api/functions');
  }

  /** The API's OpenAPI 3.1 document. */
  openapi(): Promise<Record<string, unknown>> {
    return this.#json('GET', '/api/openapi.json');
  }

  #dash(id: string): string {
    return `/api/dashboards/${encodeURIComponent(id)}`;
  }

  #widget(id: string, wid: WidgetRef): string {
    return `${this.#dash(id)}/widgets/${encodeURIComponent(String(wid))}`;
  }

  async #json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.#send(method, path, body === undefined ? undefined : JSON.stringify(body), 'application/json');
    return (await res.json()) as T;
  }

  async #send(method: string, path: string, body?: string, contentType?: string): Promise<Response> {
    const res = await this.#fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? { ...this.#auth } : { ...this.#auth, 'content-type': contentType ?? 'application/json' },
      body,
    });
    if (res.ok) return res;
    let problem: ProblemDetails;
    try {
      problem = (await res.json()) as ProblemDetails;
    } catch {
      problem = { title: res.statusText, status: res.status };
    }
    throw new HarnessApiError(res.status, problem);
  }
}
