/**
 * Reads a counter value of the Redis store's compact layout (layout 3) for tests and benchmarks: the
 * header's fields and the ring's size, so a test can assert widths, capacity and records without
 * depending on byte offsets itself.
 */
export interface CounterValue {
  /** Microseconds per time unit: 1, or 1,000 for segmented windows longer than 71 minutes. */
  readonly unitMicros: number;
  /** Bytes of a record's time, of its admissions (0 for an exact counter) and of a ring index. */
  readonly timeBytes: number;
  readonly countBytes: number;
  readonly indexBytes: number;
  readonly headerBytes: number;
  /** The newest admission time, in units. */
  readonly newest: number;
  readonly capacity: number;
  readonly front: number;
  /** Records held, the newest included. */
  readonly records: number;
  /** Admissions held (segmented); for an exact counter, the records. */
  readonly used: number;
}

function uint(buffer: Buffer, offset: number, bytes: number): number {
  let value = 0;
  for (let i = 0; i < bytes; i++) value = value * 256 + buffer[offset + i]!;
  return value;
}

/** Parses a value (as `getBuffer` returns it); throws when there is none or it is not of the compact layout. */
export function readCounterValue(value: Buffer | null): CounterValue {
  if (value === null) throw new Error('no counter value under that key');
  if (value.length < 9 || value[0] !== 179) throw new Error(`not a compact counter value: ${value.toString('hex')}`);
  const format = value[1]!;
  const timeBytes = format % 8;
  const countBytes = Math.floor(format / 8) % 8;
  const indexBytes = (Math.floor(format / 64) % 2) + 1;
  const unitMicros = format >= 128 ? 1000 : 1;
  const headerBytes = 9 + 2 * timeBytes + 3 * indexBytes + 2 * countBytes;
  let at = 2;
  const take = (bytes: number): number => {
    const v = uint(value, at, bytes);
    at += bytes;
    return v;
  };
  const newest = take(7);
  take(timeBytes);
  take(timeBytes);
  const capacity = take(indexBytes);
  const front = take(indexBytes);
  const records = take(indexBytes);
  take(countBytes);
  const used = countBytes > 0 ? take(countBytes) : records;
  if (value.length !== headerBytes + capacity * (timeBytes + countBytes)) {
    throw new Error(`value of ${value.length} bytes does not hold ${capacity} records after a ${headerBytes}-byte header`);
  }
  return { unitMicros, timeBytes, countBytes, indexBytes, headerBytes, newest, capacity, front, records, used };
}
