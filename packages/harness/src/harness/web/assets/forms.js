// Reads the form values a person has entered in a widget, keyed by field name as the console collects them:
// text-like inputs and textareas give their value, a radio group its checked value, checkboxes their value
// when checked (an array when several share a name), selects the selected value(s). Fields without a name,
// disabled fields, buttons and file inputs are skipped, and so is the hidden content of <cwdb-action>.

const SKIP_TYPES = new Set(['button', 'submit', 'reset', 'file', 'image']);

/**
 * @param {Document} doc the widget frame's document
 * @returns {Record<string, string | string[]>}
 */
export function readForms(doc) {
  const out = {};
  const checkboxCount = new Map();
  const fields = [...doc.querySelectorAll('input[name], textarea[name], select[name]')].filter(
    (el) => el.name && !el.disabled && !el.closest('cwdb-action') && !(el.localName === 'input' && SKIP_TYPES.has(el.type)),
  );
  for (const el of fields) {
    if (el.localName === 'input' && el.type === 'checkbox') checkboxCount.set(el.name, (checkboxCount.get(el.name) ?? 0) + 1);
  }
  for (const el of fields) {
    const name = el.name;
    if (el.localName === 'select') {
      if (el.multiple) out[name] = [...el.selectedOptions].map((o) => o.value);
      else if (el.options.length > 0) out[name] = el.value;
    } else if (el.localName === 'input' && el.type === 'radio') {
      if (el.checked) out[name] = el.value;
    } else if (el.localName === 'input' && el.type === 'checkbox') {
      if (!el.checked) continue;
      if (checkboxCount.get(name) > 1) out[name] = [...(Array.isArray(out[name]) ? out[name] : []), el.value];
      else out[name] = el.value;
    } else {
      out[name] = el.value;
    }
  }
  return out;
}
