// lint(): the console-sanitizer findings plus the malformed-action findings, sorted by position.
import { asParsed, type ParsedWidgetHtml } from './parse.js';
import { findRemovals } from './sanitizer-model.js';
import { removalFinding, type Finding } from './rules.js';
import { actionFindings } from './actions.js';

/**
 * What the CloudWatch console would strip from this widget HTML, and which `<cwdb-action>` elements can never
 * work. Never throws; runs in time linear in the input.
 *
 * @example
 * lint('<a href="javascript:go()">Go</a>');
 * // [{ rule: 'javascript-url', severity: 'error', line: 1, column: 4, element: 'a', attribute: 'href', … }]
 */
export function lint(input: string | ParsedWidgetHtml): Finding[] {
  const parsed = asParsed(input);
  const findings: Finding[] = [];
  for (const r of findRemovals(parsed.root)) {
    for (const f of removalFinding(parsed, r)) findings.push(f);
  }
  for (const f of actionFindings(parsed)) findings.push(f);
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}
