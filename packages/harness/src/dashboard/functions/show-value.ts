/** How long a value may be when an error message quotes it. */
const MAX_SHOWN = 200;

/**
 * A value as an error message quotes it: its JSON text (`String(value)` where JSON has none, as for
 * `undefined` or a cycle), cut to 200 characters so that a huge posted value cannot flood a message.
 *
 * @example
 * showValue({ theme: 'blue' }); // '{"theme":"blue"}'
 */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}… (${text.length} characters)` : text;
}
