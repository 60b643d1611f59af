/** Request headers with case-insensitive lookup. Repeated headers are joined with ", " (cookies with "; "). */
export class RequestHeaders {
  readonly #raw: Record<string, string | string[] | undefined>;

  /** `raw` must have lower-case names, as `node:http` gives them. */
  constructor(raw: Record<string, string | string[] | undefined>) {
    this.#raw = raw;
  }

  /** The header's value, or `undefined` when absent. */
  get(name: string): string | undefined {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return value.join(name.toLowerCase() === 'cookie' ? '; ' : ', ');
    return value;
  }

  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#raw)) {
      const value = this.get(name);
      if (value !== undefined) yield [name, value];
    }
  }
}

export type HeaderValue = string | number | readonly string[];

/**
 * Response headers, names kept in lower case. Kept as one flat name, value, name, value, … array: a response
 * has a handful of headers, so a scan beats a hash map, and the array is already the form `writeHead` takes.
 */
export class ResponseHeaders {
  readonly #flat: (string | string[])[] = [];

  constructor(init?: Record<string, HeaderValue> | ResponseHeaders) {
    if (init instanceof ResponseHeaders) {
      const flat = init.#flat;
      for (let i = 0; i < flat.length; i += 2) {
        const v = flat[i + 1]!;
        this.#flat.push(flat[i]!, Array.isArray(v) ? [...v] : v);
      }
    } else if (init) for (const name of Object.keys(init)) this.set(name, init[name]!);
  }

  /** Where the value of `key` (lower case) sits in the flat array, or -1. */
  #valueIndex(key: string): number {
    const flat = this.#flat;
    for (let i = 0; i < flat.length; i += 2) if (flat[i] === key) return i + 1;
    return -1;
  }

  set(name: string, value: HeaderValue): this {
    const stored = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : [...value];
    const key = name.toLowerCase();
    const at = this.#valueIndex(key);
    if (at === -1) this.#flat.push(key, stored);
    else this.#flat[at] = stored;
    return this;
  }

  append(name: string, value: string): this {
    const key = name.toLowerCase();
    const at = this.#valueIndex(key);
    if (at === -1) {
      this.#flat.push(key, value);
      return this;
    }
    const current = this.#flat[at]!;
    this.#flat[at] = Array.isArray(current) ? [...current, value] : [current, value];
    return this;
  }

  get(name: string): string | string[] | undefined {
    const at = this.#valueIndex(name.toLowerCase());
    return at === -1 ? undefined : this.#flat[at];
  }

  has(name: string): boolean {
    return this.#valueIndex(name.toLowerCase()) !== -1;
  }

  delete(name: string): boolean {
    const at = this.#valueIndex(name.toLowerCase());
    if (at === -1) return false;
    this.#flat.splice(at - 1, 2);
    return true;
  }

  *entries(): IterableIterator<[string, string | string[]]> {
    const flat = this.#flat;
    for (let i = 0; i < flat.length; i += 2) yield [flat[i] as string, flat[i + 1]!];
  }

  get size(): number {
    return this.#flat.length >> 1;
  }

  /** Copies every header of `other` over these. */
  merge(other: ResponseHeaders): this {
    const flat = other.#flat;
    for (let i = 0; i < flat.length; i += 2) this.#put(flat[i] as string, flat[i + 1]!);
    return this;
  }

  #put(key: string, value: string | string[]): void {
    const at = this.#valueIndex(key);
    if (at === -1) this.#flat.push(key, value);
    else this.#flat[at] = value;
  }

  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    const flat = this.#flat;
    for (let i = 0; i < flat.length; i += 2) out[flat[i] as string] = flat[i + 1]!;
    return out;
  }

  /** Name, value, name, value, …: the raw form `writeHead` takes without copying into an object. A copy. */
  toFlat(): (string | string[])[] {
    return this.#flat.slice();
  }

  /** Adds the headers of `other` that these do not have yet, and its `Set-Cookie` lines after these' own. */
  fillFrom(other: ResponseHeaders): this {
    const flat = other.#flat;
    for (let i = 0; i < flat.length; i += 2) {
      const key = flat[i] as string;
      const at = this.#valueIndex(key);
      if (at === -1) this.#flat.push(key, flat[i + 1]!);
      else if (key === 'set-cookie') this.#flat[at] = [this.#flat[at]!, flat[i + 1]!].flat();
    }
    return this;
  }
}
