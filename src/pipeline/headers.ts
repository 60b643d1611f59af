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

/** Response headers, names kept in lower case. */
export class ResponseHeaders {
  readonly #map = new Map<string, string | string[]>();

  constructor(init?: Record<string, HeaderValue> | ResponseHeaders) {
    if (init instanceof ResponseHeaders) for (const [k, v] of init.entries()) this.#map.set(k, Array.isArray(v) ? [...v] : v);
    else if (init) for (const [k, v] of Object.entries(init)) this.set(k, v);
  }

  set(name: string, value: HeaderValue): this {
    this.#map.set(name.toLowerCase(), Array.isArray(value) ? [...value] : String(value));
    return this;
  }

  append(name: string, value: string): this {
    const key = name.toLowerCase();
    const current = this.#map.get(key);
    if (current === undefined) this.#map.set(key, value);
    else this.#map.set(key, Array.isArray(current) ? [...current, value] : [current, value]);
    return this;
  }

  get(name: string): string | string[] | undefined {
    return this.#map.get(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  delete(name: string): boolean {
    return this.#map.delete(name.toLowerCase());
  }

  entries(): IterableIterator<[string, string | string[]]> {
    return this.#map.entries();
  }

  get size(): number {
    return this.#map.size;
  }

  /** Copies every header of `other` over these. */
  merge(other: ResponseHeaders): this {
    for (const [k, v] of other.entries()) this.#map.set(k, v);
    return this;
  }

  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    this.#map.forEach((value, key) => {
      out[key] = value;
    });
    return out;
  }

  /** Name, value, name, value, …: the raw form `writeHead` takes without copying into an object. */
  toFlat(): (string | string[])[] {
    const out: (string | string[])[] = [];
    this.#map.forEach((value, key) => {
      out.push(key, value);
    });
    return out;
  }

  /** Adds the headers of `other` that these do not have yet. */
  fillFrom(other: ResponseHeaders): this {
    other.#map.forEach((value, key) => {
      if (!this.#map.has(key)) this.#map.set(key, value);
    });
    return this;
  }
}
