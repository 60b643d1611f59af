// Form fields as the console collects them for `widgetContext.forms.all` (docs/widgets.md, "Form fields").
import { asParsed, type ParsedWidgetHtml } from './parse.js';
import { HTML_NS, getAttr, hasAttr, isElement, normalizeWhitespace, textContent, walk, type Element } from './tree.js';

/** One named field of the widget (all controls sharing the name). */
export interface FormField {
  name: string;
  kind: 'text' | 'textarea' | 'radio' | 'checkbox' | 'select';
  /** select[multiple], or several checkboxes (or text controls) sharing the name. */
  multiple: boolean;
  /** What the console collects; undefined when nothing is (no radio checked, no checkbox checked). */
  value: string | string[] | undefined;
  /** The values a posted form may use, for radio groups, checkbox groups and selects. */
  options?: string[];
}

const SKIPPED_INPUTS = new Set(['button', 'submit', 'reset', 'file', 'image']);

interface Draft {
  field: FormField;
  checked: string[];
  controls: number;
}

/**
 * Every named, enabled form control of the widget, one entry per name, in document order of first appearance.
 * Controls of another kind that reuse a name already taken are ignored.
 *
 * @example
 * collectFormFields('<input name="q" value="cpu"><input type="checkbox" name="live" checked>');
 * // [{ name: 'q', kind: 'text', value: 'cpu', … }, { name: 'live', kind: 'checkbox', value: 'on', … }]
 */
export function collectFormFields(input: string | ParsedWidgetHtml): FormField[] {
  const parsed = asParsed(input);
  const drafts = new Map<string, Draft>();
  walk(parsed.root, (node) => {
    if (!isElement(node) || node.namespaceURI !== HTML_NS) return;
    if (node.tagName === 'fieldset' && hasAttr(node, 'disabled')) return disabledFieldset(node, drafts);
    if (node.tagName === 'input' || node.tagName === 'textarea' || node.tagName === 'select') {
      addControl(node, drafts);
      return node.tagName !== 'select' && node.tagName !== 'textarea';
    }
    return true;
  });
  return [...drafts.values()].map(finish);
}

/** A disabled fieldset disables its controls, except those inside its first legend. */
function disabledFieldset(fieldset: Element, drafts: Map<string, Draft>): false {
  const legend = fieldset.childNodes.find((k): k is Element => isElement(k) && k.tagName === 'legend');
  if (legend) {
    walk(legend, (node) => {
      if (
        isElement(node) &&
        node.namespaceURI === HTML_NS &&
        (node.tagName === 'input' || node.tagName === 'textarea' || node.tagName === 'select')
      ) {
        addControl(node, drafts);
        return false;
      }
      return !(isElement(node) && node.tagName === 'fieldset' && hasAttr(node, 'disabled'));
    });
  }
  return false;
}

function kindOf(el: Element): FormField['kind'] | undefined {
  if (el.tagName === 'textarea') return 'textarea';
  if (el.tagName === 'select') return 'select';
  const type = (getAttr(el, 'type') ?? 'text').trim().toLowerCase();
  if (SKIPPED_INPUTS.has(type)) return undefined;
  if (type === 'radio' || type === 'checkbox') return type;
  return 'text';
}

function addControl(el: Element, drafts: Map<string, Draft>): void {
  const name = getAttr(el, 'name');
  if (!name || hasAttr(el, 'disabled')) return;
  const kind = kindOf(el);
  if (!kind) return;
  let draft = drafts.get(name);
  if (!draft) {
    draft = { field: { name, kind, multiple: false, value: undefined }, checked: [], controls: 0 };
    drafts.set(name, draft);
  } else if (draft.field.kind !== kind && !(isTextual(kind) && isTextual(draft.field.kind))) {
    return;
  }
  draft.controls++;
  const f = draft.field;
  if (kind === 'text' || kind === 'textarea') {
    const v = kind === 'text' ? (getAttr(el, 'value') ?? '') : textContent(el);
    f.value = f.value === undefined ? v : ([] as string[]).concat(f.value, v);
    f.multiple = draft.controls > 1;
  } else if (kind === 'radio' || kind === 'checkbox') {
    const v = getAttr(el, 'value') ?? 'on';
    (f.options ??= []).push(v);
    if (hasAttr(el, 'checked')) draft.checked.push(v);
    if (kind === 'checkbox') f.multiple = draft.controls > 1;
  } else {
    readSelect(el, f);
  }
}

function isTextual(kind: FormField['kind']): boolean {
  return kind === 'text' || kind === 'textarea';
}

function readSelect(el: Element, f: FormField): void {
  const multiple = hasAttr(el, 'multiple');
  const options: string[] = [];
  const selected: string[] = [];
  walk(el, (node) => {
    if (!isElement(node)) return;
    if (node.tagName !== 'option') return true;
    const v = getAttr(node, 'value') ?? normalizeWhitespace(textContent(node));
    options.push(v);
    if (hasAttr(node, 'selected')) selected.push(v);
    return false;
  });
  f.options = options;
  f.multiple = multiple;
  // A single select shows the last option marked selected, or else the first option.
  f.value = multiple ? selected : selected.length > 0 ? selected[selected.length - 1] : options[0];
}

function finish(d: Draft): FormField {
  const f = d.field;
  if (f.kind === 'radio') f.value = d.checked.length > 0 ? d.checked[d.checked.length - 1] : undefined;
  if (f.kind === 'checkbox') f.value = d.checked.length === 0 ? undefined : d.checked.length === 1 ? d.checked[0] : d.checked;
  return f;
}

/**
 * The `widgetContext.forms.all` object for these fields: name → value, absent values left out.
 *
 * @example
 * formValues(collectFormFields(html)); // { q: 'cpu', live: 'on' }
 */
export function formValues(fields: FormField[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const f of fields) {
    // defineProperty, so a field named __proto__ is a field and not a prototype.
    if (f.value !== undefined) Object.defineProperty(out, f.name, { value: f.value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
