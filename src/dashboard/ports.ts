import type { InvokeOutcome } from './functions/index.js';

export type { InvokeOutcome };

/**
 * What the interpreter needs from the linter room and from function targets, written as the narrow
 * interfaces it calls. The linter's and the function registry's real exports satisfy them structurally.
 */

/** A linter finding: HTML the console would strip, or a malformed `<cwdb-action>`. */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  line: number;
  column: number;
  element: string;
  attribute?: string;
}

/** A `<cwdb-action>` as the linter extracts it. */
export interface WidgetAction {
  index: number;
  text: string;
  action: 'call' | 'html';
  display: 'popup' | 'widget';
  event: 'click' | 'dblclick' | 'mouseenter';
  confirmation: string | null;
  endpoint?: string;
  params?: unknown;
  html?: string;
  bound: boolean;
  problems: string[];
  line: number;
  column: number;
}

/** One named form field of a widget. */
export interface FormField {
  name: string;
  kind: 'text' | 'textarea' | 'radio' | 'checkbox' | 'select';
  multiple: boolean;
  value: string | string[] | undefined;
  options?: string[];
}

/** Parsing, linting, action and form extraction over one parse of a widget's HTML. */
export interface HtmlAnalyzer<P = unknown> {
  parse(html: string): P;
  lint(parsed: P): Finding[];
  extractActions(parsed: P): WidgetAction[];
  collectFormFields(parsed: P): FormField[];
  formValues(fields: FormField[]): Record<string, string | string[]>;
}

/**
 * Whatever runs an endpoint: the function registry, or a fake in a test.
 *
 * @example
 * const fake: FunctionInvoker = { invoke: async () => ({ ok: true, value: '<p>hi</p>', logs: '', durationMs: 0, awsRequestId: '1' }) };
 */
export interface FunctionInvoker {
  invoke(endpoint: string, event: unknown, options?: { signal?: AbortSignal }): Promise<InvokeOutcome>;
}
