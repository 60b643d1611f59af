/**
 * `Fn::Sub`'s string: `${Name}` and `${LogicalId.Attribute}` are replaced, `${!Literal}` stands for the text
 * `${Literal}`, and a `${` that is never closed is kept as it is.
 */

/** One piece of a `Fn::Sub` string: literal text, or a variable to look up. */
export type SubPart = { text: string } | { variable: string };

/** Names `${…}` may hold: parameters, resources, `Logical.Attribute`, pseudo parameters such as `AWS::Region`. */
const VARIABLE = /^[A-Za-z0-9_:.]+$/;

/**
 * Splits a `Fn::Sub` string into its pieces; throws an Error (the caller adds the place) for an empty or
 * malformed `${}`.
 *
 * @example
 * parseSub('arn:${AWS::Partition}:s3:::${!Bucket}');
 * // [{ text: 'arn:' }, { variable: 'AWS::Partition' }, { text: ':s3:::${Bucket}' }]
 */
export function parseSub(template: string): SubPart[] {
  const parts: SubPart[] = [];
  let text = '';
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('${', at);
    if (open < 0) break;
    text += template.slice(at, open);
    if (template[open + 2] === '!') {
      text += '${';
      at = open + 3;
      continue;
    }
    const close = template.indexOf('}', open + 2);
    if (close < 0) {
      text += template.slice(open);
      at = template.length;
      break;
    }
    const variable = template.slice(open + 2, close);
    if (!VARIABLE.test(variable)) {
      throw new Error(
        `\${${variable}} is not a variable: Fn::Sub takes \${Name} or \${LogicalId.Attribute} (letters, digits, _, :: and .), and \${!Text} for a literal "\${Text}"`,
      );
    }
    if (text) parts.push({ text });
    text = '';
    parts.push({ variable });
    at = close + 1;
  }
  text += template.slice(at);
  if (text) parts.push({ text });
  return parts;
}
