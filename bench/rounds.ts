/**
 * How many rounds a benchmark runs: ROUNDS from the environment when set (a whole number of at least 1), or
 * `fallback`. Anything else is refused with a message naming the variable.
 */
export function roundsFromEnvironment(fallback: number): number {
  const given = process.env.ROUNDS;
  if (given === undefined || given === '') return fallback;
  const rounds = Number(given);
  if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error(`ROUNDS must be a whole number of at least 1; got "${given}"`);
  return rounds;
}

/** The median of per-round ratios (a copy is sorted), which one lucky or unlucky round cannot move. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The order contenders run in within a round: as given in even rounds, reversed in odd ones, so a machine
 * that slows or speeds up over a run favours no contender (each pair is measured A B, then B A).
 */
export function roundOrder<T>(contenders: readonly T[], round: number): readonly T[] {
  return round % 2 === 0 ? contenders : [...contenders].reverse();
}
