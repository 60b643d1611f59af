/**
 * The bytes of a counter's window, the item's `w` attribute. DynamoDB bills a write by the item's size (one
 * write unit per started KB), so the window is kept small: whole numbers as unsigned LEB128 varints, the
 * newest record's time in full and every other record as the gap to the next newer one, counted in grid
 * steps. Layout: a format byte (1), then unit, newest time / unit, (newest time − newest start) / unit,
 * record count, then per record from the newest: its permits and, for all but the newest, the gap.
 *
 * An exact 128-per-minute counter takes about 520 bytes at most, a segmented one (128 segments) about 660,
 * so with its key an item stays under 1 KB: one write unit per admission.
 */
import type { WindowState } from './window-state.js';

const FORMAT = 1;
/** Most records a window may hold when read: far above any the store writes (its options are capped). */
const MAX_RECORDS = 65_536;

/** A window whose bytes this store did not write, or cannot read. */
export class ForeignWindowError extends Error {
  override readonly name = 'ForeignWindowError';
}

/** The window's bytes. It must hold at least one record, on its own grid. */
export function encodeWindow(state: WindowState): Uint8Array {
  const { unit, times, counts } = state;
  const n = times.length;
  const newest = times[n - 1]! / unit;
  const out = [FORMAT];
  const write = (value: number): void => {
    for (; value >= 128; value = Math.floor(value / 128)) out.push((value % 128) + 128);
    out.push(value);
  };
  write(unit);
  write(newest);
  write(newest - state.newestStart / unit);
  write(n);
  for (let i = n - 1; i >= 0; i--) {
    write(counts[i]!);
    if (i < n - 1) write((times[i + 1]! - times[i]!) / unit);
  }
  return Uint8Array.from(out);
}

/** Reads a window written by {@link encodeWindow}; throws {@link ForeignWindowError} for anything else. */
export function decodeWindow(bytes: Uint8Array): WindowState {
  let at = 1;
  const read = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new ForeignWindowError('the window ends inside a number');
      const byte = bytes[at++]!;
      value += (byte & 127) * scale;
      if (byte < 128) break;
      scale *= 128;
      if (scale > 2 ** 56) throw new ForeignWindowError('a number of the window is too long');
    }
    if (!Number.isSafeInteger(value)) throw new ForeignWindowError('a number of the window is too large');
    return value;
  };
  if (bytes.length < 5 || bytes[0] !== FORMAT) throw new ForeignWindowError('not a window of this store');
  const unit = read();
  const newest = read();
  const sinceStart = read();
  const n = read();
  if (unit < 1 || n < 1 || n > MAX_RECORDS || sinceStart > newest) throw new ForeignWindowError('the window header makes no sense');
  const times = new Array<number>(n);
  const counts = new Array<number>(n);
  let step = newest;
  for (let i = n - 1; i >= 0; i--) {
    counts[i] = read();
    if (counts[i]! < 1) throw new ForeignWindowError('a record of the window holds no permit');
    if (i < n - 1) step -= read();
    if (step < 0) throw new ForeignWindowError('a record of the window lies before time 0');
    times[i] = step * unit;
  }
  if (at !== bytes.length) throw new ForeignWindowError('the window has bytes after its records');
  if (!Number.isSafeInteger(newest * unit)) throw new ForeignWindowError('the window lies too far in the future');
  return { unit, times, counts, newestStart: (newest - sinceStart) * unit };
}
