import type { WidgetModel } from './model.js';
import type { Rendered } from './render.js';
import type { WidgetEventKind, WidgetCall, WidgetReading } from './results.js';

/**
 * What the function printed while producing a widget result: `result.invocation.logs`, or empty for content
 * no function produced.
 *
 * @example
 * logsOf(await dashboard.readWidget(0)); // 'START RequestId: … END RequestId: …'
 */
export function logsOf(result: WidgetReading): string {
  return result.invocation?.logs ?? '';
}

function viewBytes(view: View | null): number {
  if (view === null) return 0;
  const r = view.rendered;
  // A string result is the HTML itself (one string, counted once); other values are about as long as their HTML.
  return r.html.length * (typeof r.raw === 'string' && r.raw !== r.html ? 2 : 1) + (view.invocation?.logs.length ?? 0);
}

/** A rendering shown in a widget (or a popup), with what produced it. */
export interface View {
  rendered: Rendered;
  display: 'widget' | 'popup';
  event: WidgetEventKind;
  /** The function call that produced this content; null when none did. */
  invocation: WidgetCall | null;
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
  /** Roughly what the remembered content holds (HTML, raw value, logs), in characters. */
  #bytes = 0;

  /** `onResize` hears how many bytes the remembered content grew (or shrank) by. */
  constructor(
    readonly model: WidgetModel,
    private readonly onResize: (delta: number) => void = () => {},
  ) {}

  #measure(): void {
    const size = viewBytes(this.base) + viewBytes(this.replaced);
    const delta = size - this.#bytes;
    this.#bytes = size;
    if (delta !== 0) this.onResize(delta);
  }

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
    this.#measure();
  }

  /** Shows content a `display: widget` action produced in place of the widget's own. */
  replace(view: View): void {
    this.replaced = view;
    this.#measure();
  }

  /** Forgets the content: the next read runs the widget's function again, as on a first read. */
  forget(): void {
    this.base = null;
    this.replaced = null;
    this.#measure();
  }

  result(view: View): WidgetReading {
    const r = view.rendered;
    return {
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
  }
}
