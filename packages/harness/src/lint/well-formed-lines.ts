// Line and column numbers for the well-formed parser, the way parse5 counts them (1-based, LF ends a line).
import type { Token } from 'parse5';

/**
 * Turns offsets into lines and columns. Offsets are asked for in increasing order, so one forward scan over
 * the newlines serves a whole parse.
 */
export class LineCursor {
  /** Line and column of the offset last passed to `at`. */
  line = 1;
  col = 1;
  readonly #src: string;
  #line = 1;
  #lineStart = 0;
  #nextNewline: number;

  constructor(source: string) {
    this.#src = source;
    this.#nextNewline = source.indexOf('\n');
  }

  /** Moves to `offset`, which must not be before the last one. */
  at(offset: number): void {
    while (this.#nextNewline !== -1 && this.#nextNewline < offset) {
      this.#line++;
      this.#lineStart = this.#nextNewline + 1;
      this.#nextNewline = this.#src.indexOf('\n', this.#lineStart);
    }
    this.line = this.#line;
    this.col = offset - this.#lineStart + 1;
  }

  /** The location of `[start, end)`. */
  location(start: number, end: number): Token.Location {
    this.at(start);
    const startLine = this.line;
    const startCol = this.col;
    this.at(end);
    return { startLine, startCol, startOffset: start, endLine: this.line, endCol: this.col, endOffset: end };
  }
}
