/** Where a TestClock starts: a fixed, realistic epoch time in milliseconds. */
export const START_MS = 1_700_000_000_000;

/**
 * A clock for store tests that set time directly: `clock.ms += 250`, or `clock.ms = START_MS` to jump,
 * backwards too (which the package's `ManualClock` refuses).
 */
export class TestClock {
  constructor(public ms = START_MS) {}
  now(): number {
    return this.ms;
  }
}
