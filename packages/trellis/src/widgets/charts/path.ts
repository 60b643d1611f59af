// SVG path data in tenths of a pixel: absolute positions are rounded once, then written as relative steps
// (`l.4-1.2`), which sum back exactly and take about two thirds of the bytes of absolute ones.

/** A number of tenths as the shortest decimal: 4 → ".4", -12 → "-1.2", 30 → "3". */
export function tenths(t: number): string {
  if (t % 10 === 0) return String(t / 10);
  const abs = t < 0 ? -t : t;
  const whole = Math.floor(abs / 10);
  return `${t < 0 ? '-' : ''}${whole === 0 ? '' : whole}.${abs % 10}`;
}

/** A coordinate (pixels) as text with one decimal at most. */
export function coord(v: number): string {
  return tenths(Math.round(v * 10));
}

/** Builds path data of lines; positions in pixels. */
export class PathWriter {
  #d = '';
  #x = 0;
  #y = 0;
  #drawn = false;

  /** Starts a subpath at an absolute position. */
  move(x: number, y: number): this {
    this.#x = Math.round(x * 10);
    this.#y = Math.round(y * 10);
    this.#d += `M${tenths(this.#x)} ${tenths(this.#y)}`;
    this.#drawn = false;
    return this;
  }

  /** A line to an absolute position, written as a relative step (none for no move). */
  line(x: number, y: number): this {
    const X = Math.round(x * 10);
    const Y = Math.round(y * 10);
    const dx = X - this.#x;
    const dy = Y - this.#y;
    if (dx === 0 && dy === 0) return this;
    if (dy === 0) this.#d += `h${tenths(dx)}`;
    else if (dx === 0) this.#d += `v${tenths(dy)}`;
    else this.#d += `l${tenths(dx)}${dy < 0 ? '' : ' '}${tenths(dy)}`;
    this.#x = X;
    this.#y = Y;
    this.#drawn = true;
    return this;
  }

  /**
   * Ends a subpath of lines: one that drew nothing (an isolated point between gaps) becomes a dot, a subpath
   * of no length that a round line cap draws.
   */
  end(): this {
    if (!this.#drawn && this.#d !== '') this.#d += 'h0';
    this.#drawn = true;
    return this;
  }

  /** A vertical line to an absolute y. */
  vertical(y: number): this {
    this.#y = Math.round(y * 10);
    this.#d += `V${tenths(this.#y)}`;
    return this;
  }

  close(): this {
    this.#d += 'Z';
    return this;
  }

  get empty(): boolean {
    return this.#d === '';
  }

  toString(): string {
    return this.#d;
  }
}
