/** `trellis-harness/lint`: the console's HTML model — parsing, the sanitizer linter, actions and forms. */
export { lint, parseWidgetHtml } from '../lint/index.js';
export type { Finding, ParsedWidgetHtml } from '../lint/index.js';
export { extractActions } from '../lint/index.js';
export type { WidgetAction } from '../lint/index.js';
export { collectFormFields, formValues } from '../lint/index.js';
export type { FormField } from '../lint/index.js';
