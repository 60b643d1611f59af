// trellis-harness/lint: the console's HTML model — parsing, the sanitizer linter, actions and forms.
export { parseWidgetHtml, type ParsedWidgetHtml } from './parse.js';
export { lint } from './lint.js';
export { RULES, type Finding, type RuleId } from './rules.js';
export { extractActions, elementText, type WidgetAction } from './actions.js';
export { collectFormFields, formValues, type FormField } from './forms.js';
