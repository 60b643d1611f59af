import type { WidgetModel } from './model.js';
import type { Rendered } from './render.js';
import type { WidgetEventKind, WidgetInvocation, WidgetResult } from './results.js';

/**
 * What the function printed while producing a widget result: `result.invocation.logs`, or empty for content
 * no function produced.
 *
 * @example
 * logsOf(await dashboard.readWidget(0)); // 'START RequestId: … END RequestId: …'
 */
export function logsOf(result: WidgetResult): string {
  return result.invocation?.logs ?? '';
}

/** A rendering shown in a widget (or a popup), with what produced it. */
export interface View {
  rendered: Rendered;
  display: 'widget' | 'popup';
  event: WidgetEventKind;
  /** The function call that produced this content; null when none did. */
  invocation: WidgetInvocation | null;
}

/**
 * What the interpreter remembers about one widget: its own content (from load, refresh or a state change),
 * content an action put in its place, and how often its functions ran.
 */
export class WidgetSession {
  invocations = 0;
  /** Content from the widget's own function; null until first read. */
  base: View | null = null;
  /** Content a `display: widget` action put in place of `base`; cleared when the widget runs again. */
  replaced: View | null = null;

  constructor(readonly model: WidgetModel) {}

  get current(): View | null {
    return this.replaced ?? this.base;
  }

  get read(): boolean {
    return this.base !== null;
  }

  /** Shows fresh content from the widget's own function. */
  show(view: View): void {
    this.base = view;
    this.replaced = null;
  }

  result(view: View): WidgetResult {
    const r = view.rendered;
    const result: WidgetResult = {
      widgetId: this.model.widgetId,
      html: r.html,
      display: view.display,
      event: view.event,
      raw: r.raw,
      findings: r.findings,
      error: r.error,
      invocations: this.invocations,
      invocation: view.invocation,
    };
    return result;
  }
}
