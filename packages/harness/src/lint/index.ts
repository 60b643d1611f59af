// The console's HTML model — parsing, the sanitizer linter, actions and forms — for the other rooms and the tests;
// `trellis-harness/lint` publishes what users call from it (src/public/lint.ts).
export { parseWidgetHtml, type ParsedWidgetHtml } from './parse.js';
export { lint } from './lint.js';
export { RULES, type Finding, type RuleId } from './rules.js';
export { extractActions, elementText, type WidgetAction } from './actions.js';
export { collectFormFields, formValues, type FormField } from './forms.js';
