// Result helpers: Markdown results, and documentation for the `describe: true` events of custom widgets.
import type { LambdaCallback, LambdaContext, MarkdownResult, WidgetEvent, WidgetHandler, WidgetResult } from './types.js';

/**
 * Returns Markdown for the console to render.
 *
 * @example
 * export const handler = async () => markdown('# Report\n\nAll **green**.');
 */
export function markdown(text: string): MarkdownResult {
  return { markdown: String(text) };
}

/**
 * Wraps a handler so that an event with `describe: true` gets `documentation` (Markdown text, as the
 * console's samples return it) and every other event goes to the handler. The result is still a plain
 * Lambda handler.
 *
 * @example
 * export const handler = documented('Shows the **CPU** of an instance. Params: `instanceId`.', async (event) => html`…`);
 */
export function documented<Params = Record<string, unknown>, WidgetParams = unknown>(
  documentation: string,
  handler: WidgetHandler<Params, WidgetParams>,
): WidgetHandler<Params, WidgetParams> {
  return (
    event: WidgetEvent<Params, WidgetParams>,
    context: LambdaContext,
    callback: LambdaCallback,
  ): WidgetResult | void | Promise<WidgetResult | void> => {
    // A promise, not a bare value: the Lambda runtime waits for the callback when a handler returns neither.
    if (event?.describe === true) return Promise.resolve(documentation);
    return handler(event, context, callback);
  };
}
