import type { FunctionInfo, InvokeError, InvokeOutcome } from './functions/index.js';

import type { Finding, FormField, WidgetAction } from '../lint/index.js';

export type { Finding, FormField, WidgetAction };

/**
 * What the interpreter needs from the linter room and from function targets, as the narrow interfaces it
 * calls (the types come from the linter's surface, so the two can never drift apart).
 */

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
  /** How each configured function runs and what of AWS it reaches (the registry has it; a fake may not). */
  describe?(): FunctionInfo[];
  /** Loads every module function's handler ahead of its first call; resolves with each one's init error. */
  preload?(): Promise<Array<{ name: string; error: InvokeError | undefined }>>;
}
