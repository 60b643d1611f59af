import jsonc from 'jsonc-parser';

/** Where a JSON text stops being JSON: 1-based line and column, and what was expected there. */
export interface JsonSyntaxProblem {
  message: string;
  line: number;
  column: number;
}

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem };

/** What each of the parser's complaints expected instead. */
const EXPECTED: Record<string, string> = {
  ValueExpected: 'a value',
  PropertyNameExpected: 'a property name in double quotes',
  ColonExpected: '":"',
  CommaExpected: '"," or a closing bracket',
  CloseBraceExpected: '"," or "}"',
  CloseBracketExpected: '"," or "]"',
  EndOfFileExpected: 'end of input',
  InvalidNumberFormat: 'a number',
  UnexpectedEndOfNumber: 'a digit',
};

/** The complaints about a string, which the parser makes at the string's opening quote. */
const IN_STRING: Record<string, string> = {
  UnexpectedEndOfString: 'The string starting here has no closing quote on its line',
  InvalidUnicode: 'The string starting here has a \\u escape without four hexadecimal digits',
  InvalidEscapeCharacter: 'The string starting here has an escape other than \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
  InvalidCharacter: 'The string starting here holds a control character; write it escaped (\\n, \\t, \\u0000)',
};

/**
 * Parses JSON text; on failure says where (line and column) it went wrong, which `JSON.parse` does not
 * reliably report across Node versions. A leading byte order mark is ignored.
 *
 * @example
 * parseJsonText('{"a": }'); // { ok: false, problem: { line: 1, column: 7, message: 'Unexpected "}", expected a value at line 1, column 7' } }
 */
export function parseJsonText(text: string): JsonTextResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    const found = firstError(body);
    const { line, column } = lineColumn(text, found.at + text.length - body.length);
    return { ok: false, problem: { message: `${found.message} at line ${line}, column ${column}`, line, column } };
  }
}

/** The first place the strict parser refuses, and what it expected there. */
function firstError(body: string): { at: number; message: string } {
  const errors: jsonc.ParseError[] = [];
  try {
    jsonc.parse(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    // The parser recurses into nested arrays and objects: text nested thousands deep ends here.
    return { at: 0, message: 'The text nests too deeply to be read' };
  }
  const first = errors[0];
  if (!first) return { at: 0, message: 'The text is not valid JSON' };
  const code = jsonc.printParseErrorCode(first.error);
  if (IN_STRING[code]) return { at: first.offset, message: IN_STRING[code] };
  const expected = EXPECTED[code];
  const word = /^[A-Za-z_$][\w$]*/.exec(body.slice(first.offset, first.offset + 40))?.[0];
  const found = first.offset >= body.length ? 'end of input' : JSON.stringify(word ?? body[first.offset]);
  return { at: first.offset, message: expected ? `Unexpected ${found}, expected ${expected}` : `Unexpected ${found}` };
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1 };
}

/**
 * Where the entry at `path` starts in JSON text: a member's name, an array item's value (the nearest enclosing
 * entry when the path goes further than the text does); undefined when the text is not JSON.
 *
 * @example
 * locateJson('{\n  "a": [1, 2]\n}', ['a', 1]); // { line: 2, column: 12 }
 * locateJson('{\n  "a": [1, 2]\n}', ['a']); // { line: 2, column: 3 }
 */
export function locateJson(text: string, path: ReadonlyArray<string | number>): { line: number; column: number } | undefined {
  const errors: jsonc.ParseError[] = [];
  let node: jsonc.Node | undefined;
  try {
    // A byte order mark read as a space keeps every offset where it is.
    const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
    node = jsonc.parseTree(body, errors, { disallowComments: true, allowTrailingComma: false });
  } catch {
    return undefined;
  }
  if (!node || errors.length > 0) return undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const found = jsonc.findNodeAtLocation(node, path.slice(0, depth));
    if (found) return lineColumn(text, found.parent?.type === 'property' ? found.parent.offset : found.offset);
  }
  return undefined;
}
