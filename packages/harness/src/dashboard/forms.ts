import { UnprocessableError } from './errors.js';
import { showValue } from './functions/index.js';
import type { FormField } from './ports.js';

export type FormValues = Record<string, string | string[]>;

/**
 * The form values an action call sends: the HTML's own values, overridden by the posted ones. A posted name
 * that is not a field, a value that is not a string (or an array of strings for a multi-valued field), or a
 * radio/select value outside the field's options is an {@link UnprocessableError} naming `forms.<name>`.
 *
 * @example
 * mergeForms(fields, { color: 'blue' }, defaults); // { ...defaults, color: 'blue' }
 */
export function mergeForms(fields: FormField[], posted: unknown, defaults: FormValues): FormValues {
  if (posted === undefined || posted === null) return { ...defaults };
  if (typeof posted !== 'object' || Array.isArray(posted)) {
    throw new UnprocessableError('forms', `"forms" should be an object of field names to values; got ${showValue(posted)}`);
  }
  const byName = new Map<string, FormField[]>();
  for (const f of fields) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const known = [...byName.keys()];
  const result: FormValues = { ...defaults };
  for (const [name, value] of Object.entries(posted as Record<string, unknown>)) {
    if (name === '__proto__') {
      // Assigning it to forms.all (here as in the console's own JavaScript) would drop it without a word.
      throw new UnprocessableError(
        'forms.__proto__',
        'A form field named "__proto__" cannot be sent: as a key of forms.all it would be dropped; rename the field',
      );
    }
    const group = byName.get(name);
    if (!group) {
      const list = known.length ? known.map((n) => `"${n}"`).join(', ') : 'none (the widget has no named form fields)';
      throw new UnprocessableError(`forms.${name}`, `The widget has no form field named "${name}"; its fields are ${list}`);
    }
    const multiple = group.some((f) => f.multiple) || group.filter((f) => f.kind === 'checkbox').length > 1;
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && !multiple) {
      throw new UnprocessableError(`forms.${name}`, `Field "${name}" takes one value (a string); got ${showValue(value)}`);
    }
    if (!values.every((v): v is string => typeof v === 'string')) {
      throw new UnprocessableError(
        `forms.${name}`,
        `Field "${name}" takes ${multiple ? 'a string or an array of strings' : 'a string'}; got ${showValue(value)}`,
      );
    }
    const restricted = group.filter((f) => f.kind === 'radio' || f.kind === 'select');
    if (restricted.length > 0) {
      const options = [...new Set(restricted.flatMap((f) => f.options ?? []))];
      const bad = values.find((v) => !options.includes(v));
      if (bad !== undefined) {
        throw new UnprocessableError(
          `forms.${name}`,
          `"${bad}" is not an option of field "${name}"; its options are ${options.map((o) => `"${o}"`).join(', ') || 'none'}`,
        );
      }
    }
    result[name] = Array.isArray(value) ? [...(value as string[])] : (value as string);
  }
  return result;
}
