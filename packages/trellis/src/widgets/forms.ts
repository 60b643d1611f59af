// Builders for the form fields the console collects into widgetContext.forms.all.
import { SafeHtml, escapeHtml } from './html.js';

export interface Choice {
  value: string;
  label?: string;
}

function attrs(pairs: Record<string, string | boolean | undefined>): string {
  let out = '';
  for (const [name, v] of Object.entries(pairs)) {
    if (v === undefined || v === false) continue;
    out += v === true ? ` ${name}` : ` ${name}="${escapeHtml(v)}"`;
  }
  return out;
}

function labelled(control: string, label: string | undefined): SafeHtml {
  return new SafeHtml(label === undefined ? control : `<label>${control} ${escapeHtml(label)}</label>`);
}

const choice = (c: string | Choice): Choice => (typeof c === 'string' ? { value: c } : c);

/**
 * A text input (any text-like `type`: text, search, email, number, hidden …).
 *
 * @example
 * textInput('filter', { value: 'cpu', placeholder: 'Metric' });
 */
export function textInput(name: string, options: { value?: string; type?: string; placeholder?: string; label?: string } = {}): SafeHtml {
  const control = `<input${attrs({ type: options.type ?? 'text', name, value: options.value, placeholder: options.placeholder })}>`;
  return labelled(control, options.label);
}

/**
 * A textarea; its text is the value.
 *
 * @example
 * textarea('note', { value: 'first line' });
 */
export function textarea(name: string, options: { value?: string; rows?: number } = {}): SafeHtml {
  // A leading newline would be dropped by the parser, so one is always written first.
  return new SafeHtml(`<textarea${attrs({ name, rows: options.rows?.toString() })}>\n${escapeHtml(options.value ?? '')}</textarea>`);
}

/**
 * A checkbox; checked ones give their value (or "on"); several with one name give an array.
 *
 * @example
 * checkbox('live', { checked: true, label: 'Live data' });
 */
export function checkbox(name: string, options: { value?: string; checked?: boolean; label?: string } = {}): SafeHtml {
  return labelled(`<input${attrs({ type: 'checkbox', name, value: options.value, checked: options.checked })}>`, options.label);
}

/**
 * A group of radio buttons sharing `name`; the checked one gives the value.
 *
 * @example
 * radioGroup('period', ['60', '300'], { checked: '300' });
 */
export function radioGroup(name: string, choices: Array<string | Choice>, options: { checked?: string } = {}): SafeHtml {
  return new SafeHtml(
    choices
      .map(choice)
      .map((c) =>
        labelled(
          `<input${attrs({ type: 'radio', name, value: c.value, checked: c.value === options.checked })}>`,
          c.label ?? c.value,
        ).toString(),
      )
      .join(''),
  );
}

/**
 * A select; `selected` may be an array with `multiple`. Without a selection the first option is the value.
 *
 * @example
 * select('region', ['eu-west-1', { value: 'us-east-1', label: 'N. Virginia' }], { selected: 'us-east-1' });
 */
export function select(
  name: string,
  choices: Array<string | Choice>,
  options: { selected?: string | string[]; multiple?: boolean } = {},
): SafeHtml {
  const chosen = new Set(([] as string[]).concat(options.selected ?? []));
  const opts = choices
    .map(choice)
    .map((c) => `<option${attrs({ value: c.value, selected: chosen.has(c.value) })}>${escapeHtml(c.label ?? c.value)}</option>`)
    .join('');
  return new SafeHtml(`<select${attrs({ name, multiple: options.multiple })}>${opts}</select>`);
}
