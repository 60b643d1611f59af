// The shapes a custom-widget function receives and returns, as the console and Lambda send them.
import type { SafeHtml } from './html.js';

/** The dashboard's timezone as the console sends it. */
export interface WidgetTimezone {
  label: string;
  offsetISO: string;
  /** As `Date.prototype.getTimezoneOffset()`: minutes west of UTC, so UTC+01:00 is `-60`. */
  offsetInMinutes: number;
}

/** The dashboard's time range, epoch milliseconds. */
export interface WidgetTimeRange {
  mode: 'relative' | 'absolute';
  start: number;
  end: number;
  /** For a relative range: its length in milliseconds. */
  relativeStart?: number;
  /** A zoomed-in part of the range, when the user zoomed. */
  zoom?: { start: number; end: number };
}

/** Everything the console tells a widget function about where and how it is shown. */
export interface WidgetContext<Params = unknown> {
  dashboardName: string;
  /** `widget-<n>`. */
  widgetId: string;
  accountId: string;
  locale: string;
  timezone: WidgetTimezone;
  /** Seconds. */
  period: number;
  isAutoPeriod: boolean;
  timeRange: WidgetTimeRange;
  theme: 'light' | 'dark';
  linkCharts: boolean;
  title: string;
  /** Form values of the widget's current HTML (name → value; several checked boxes give an array). */
  forms: { all: Record<string, string | string[]> };
  /** The widget's own params, even when an action's params are at the top level of the event. */
  params: Params;
  /** Pixels. */
  width: number;
  height: number;
}

/**
 * The event a widget function receives: the params (the widget's, or an action's) spread at the top level,
 * plus `widgetContext`; `describe: true` asks for documentation instead of content.
 *
 * @example
 * export const handler = async (event: WidgetEvent<{ region: string }>) => html`<p>${event.region}</p>`;
 */
export type WidgetEvent<Params = Record<string, unknown>, WidgetParams = unknown> = Params & {
  widgetContext: WidgetContext<WidgetParams>;
  describe?: boolean;
};

/** The Lambda context object (Node.js runtime), as Lambda and the harness pass it. */
export interface LambdaContext {
  functionName: string;
  functionVersion: string;
  invokedFunctionArn: string;
  /** A string, as Lambda gives it. */
  memoryLimitInMB: string;
  awsRequestId: string;
  logGroupName: string;
  logStreamName: string;
  identity?: unknown;
  clientContext?: unknown;
  callbackWaitsForEmptyEventLoop: boolean;
  getRemainingTimeInMillis(): number;
  done(error?: unknown, result?: unknown): void;
  succeed(result?: unknown): void;
  fail(error?: unknown): void;
}

/** What a widget function may return: HTML (a string or `html` template), `{ markdown }`, or any JSON value. */
/** Markdown for the console to render (`markdown()` makes one). */
export interface MarkdownResult {
  markdown: string;
}

export type WidgetResult =
  string | SafeHtml | MarkdownResult | null | boolean | number | readonly unknown[] | { readonly [key: string]: unknown };

/** A Lambda callback, for callback-style handlers. */
export type LambdaCallback = (error?: unknown, result?: WidgetResult) => void;

/**
 * A widget function: exactly the shape of a Node.js Lambda handler, so the same export runs in Lambda and
 * in the harness.
 *
 * @example
 * export const handler: WidgetHandler<{ name?: string }> = async (event) => html`<h1>Hello ${event.name ?? 'you'}</h1>`;
 */
export type WidgetHandler<Params = Record<string, unknown>, WidgetParams = unknown> = (
  event: WidgetEvent<Params, WidgetParams>,
  context: LambdaContext,
  callback: LambdaCallback,
) => WidgetResult | void | Promise<WidgetResult | void>;
