import { collectFormFields, extractActions, formValues, lint, parseWidgetHtml, type ParsedWidgetHtml } from '../lint/index.js';
import type { HtmlAnalyzer } from './ports.js';

/** The linter room's parse-once analysis, as the interpreter uses it. */
export const lintAnalyzer: HtmlAnalyzer<ParsedWidgetHtml> = {
  parse: parseWidgetHtml,
  lint,
  extractActions,
  collectFormFields,
  formValues,
};
