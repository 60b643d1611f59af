/** `trellis/testing`: helpers for tests of Trellis apps — a clock that moves only when told to. */
export { ManualClock } from '../ratelimit/index.js';
