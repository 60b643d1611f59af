import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { locateJson, parseJsonText } from './json-text.js';

test('says what was expected, and where, for the usual mistakes', () => {
  const cases: Array<[string, string]> = [
    ['{"a": }', 'Unexpected "}", expected a value at line 1, column 7'],
    ['{\n  "a": 1,\n}', 'Unexpected "}", expected a property name in double quotes at line 3, column 1'],
    ['[1 2]', 'Unexpected "2", expected "," or a closing bracket at line 1, column 4'],
    ['{"a": tru}', 'Unexpected "tru" at line 1, column 7'],
    ['{"a": 1 // why\n}', 'Unexpected "/" at line 1, column 9'],
    ['{"a": "x\ny"}', 'The string starting here has no closing quote on its line at line 1, column 7'],
    ['{"a": "\\q"}', 'The string starting here has an escape other than \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX at line 1, column 7'],
    ['', 'Unexpected end of input, expected a value at line 1, column 1'],
    ['\ufeff{"a": 1', 'Unexpected end of input, expected "," or "}" at line 1, column 9'],
    ['['.repeat(100_000), 'The text nests too deeply to be read at line 1, column 1'],
  ];
  for (const [text, message] of cases) {
    const result = parseJsonText(text);
    assert.equal(result.ok ? 'parsed' : result.problem.message, message, JSON.stringify(text.slice(0, 20)));
  }
});

test('property: valid JSON parses as JSON.parse does, with or without a byte order mark', () => {
  fc.assert(
    fc.property(fc.json(), fc.boolean(), (json, bom) => {
      assert.deepEqual(parseJsonText(bom ? `\ufeff${json}` : json), { ok: true, value: JSON.parse(json) });
    }),
  );
});

test('property: an entry is found where its name is written, at any depth and indentation', () => {
  const key = fc.string({ maxLength: 6 });
  fc.assert(
    fc.property(fc.array(key, { minLength: 1, maxLength: 5 }), fc.constantFrom(0, 1, 2, 4), (path, indent) => {
      const value = path.reduceRight<unknown>((inner, name) => ({ [name]: inner, ...(name === 'z' ? {} : { z: 1 }) }), 7);
      const text = JSON.stringify(value, null, indent);
      const at = locateJson(text, path);
      assert.ok(at);
      const line = text.split('\n')[at.line - 1]!;
      assert.ok(line.slice(at.column - 1).startsWith(`${JSON.stringify(path.at(-1))}:`), `${line} @ ${at.column}`);
    }),
  );
});

test('an array item is found at its value; a path past the text stops at the deepest entry it reaches', () => {
  const text = '{\n  "a": [1, {"b": 2}]\n}';
  assert.deepEqual(locateJson(text, ['a', 1]), { line: 2, column: 12 });
  assert.deepEqual(locateJson(text, ['a', 1, 'b']), { line: 2, column: 13 });
  assert.deepEqual(locateJson(text, ['a', 7, 'c']), { line: 2, column: 3 });
  assert.equal(locateJson('{"a":', ['a']), undefined);
  assert.deepEqual(locateJson('\ufeff{"a": 1}', ['a']), { line: 1, column: 3 });
});
