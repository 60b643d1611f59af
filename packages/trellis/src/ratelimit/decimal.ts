const ONE_DIGIT = Array.from({ length: 10 }, (_, i) => String(i));
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));

/**
 * The decimal text of a whole number, as `String(n)` gives it, without the engine's number-to-string cache:
 * that cache keeps each converted string alive until its slot is reused, so a value that changes on every
 * response (`RateLimit-Remaining`) fills it with strings that outlive young-generation collections and make
 * each of them copy and promote. Built here from two-digit pieces, the text is short-lived garbage only.
 */
export function decimal(n: number): string {
  if (!(n >= 0 && n <= 0x7fffffff && Number.isInteger(n))) return String(n);
  if (n < 10) return ONE_DIGIT[n]!;
  let rest = n;
  let out = '';
  while (rest >= 100) {
    const q = (rest / 100) | 0;
    out = TWO_DIGITS[rest - q * 100]! + out;
    rest = q;
  }
  return (rest < 10 ? ONE_DIGIT[rest]! : TWO_DIGITS[rest]!) + out;
}
