/** Where a JSON text stops being JSON: 1-based line and column, and what was expected there. */
export interface JsonSyntaxProblem {
  message: string;
  line: number;
  column: number;
}

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem };

const MAX_DEPTH = 5_000;

/**
 * Parses JSON text; on failure says where (line and column) it went wrong, which `JSON.parse` does not
 * reliably report across Node versions. A leading byte order mark is ignored.
 *
 * @example
 * parseJsonText('{"a": }'); // { ok: false, problem: { line: 1, column: 7, message: 'Unexpected "}", expected a value' } }
 */
export function parseJsonText(text: string): JsonTextResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    const offset = text.length - body.length;
    const found = locate(body);
    const { line, column } = lineColumn(text, found.at + offset);
    return { ok: false, problem: { message: `${found.message} at line ${line}, column ${column}`, line, column } };
  }
}

function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

class Stop extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

/** A validating scanner that only exists to find the first offending position. */
function locate(s: string): { at: number; message: string } {
  let i = 0;
  const describe = (at: number): string => (at >= s.length ? 'end of input' : JSON.stringify(s[at]));
  const fail = (expected: string): never => {
    throw new Stop(i, `Unexpected ${describe(i)}, expected ${expected}`);
  };
  const ws = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (s[i] !== ch) fail(`"${word}"`);
      i++;
    }
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= s.length) fail('a closing quote');
      const c = s.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail('an escaped control character');
      if (c === 92) {
        i++;
        const e = s[i];
        if (e === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(s[i] ?? '')) fail('a hexadecimal digit');
            i++;
          }
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)');
      }
      i++;
    }
  };
  const digits = (): void => {
    if (!/[0-9]/.test(s[i] ?? '')) fail('a digit');
    while (/[0-9]/.test(s[i] ?? '')) i++;
  };
  const number = (): void => {
    if (s[i] === '-') i++;
    if (s[i] === '0') i++;
    else digits();
    if (s[i] === '.') {
      i++;
      digits();
    }
    if (s[i] === 'e' || s[i] === 'E') {
      i++;
      if (s[i] === '+' || s[i] === '-') i++;
      digits();
    }
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new Stop(i, `Nesting deeper than ${MAX_DEPTH} levels`);
    ws();
    const c = s[i];
    if (c === '{') {
      i++;
      ws();
      if (s[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (s[i] !== '"') fail('a property name in double quotes');
        string();
        ws();
        if (s[i] !== ':') fail('":"');
        i++;
        value(depth + 1);
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === '}') {
          i++;
          return;
        }
        fail('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (s[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ']') {
          i++;
          return;
        }
        fail('"," or "]"');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail('a value');
  };
  try {
    value(0);
    ws();
    if (i < s.length) fail('end of input');
    // JSON.parse refused something the scanner accepted (e.g. a stack overflow): point at the start.
    return { at: 0, message: 'The text is not valid JSON' };
  } catch (e) {
    if (e instanceof Stop) return { at: e.at, message: e.message };
    return { at: 0, message: 'The text is not valid JSON' };
  }
}
