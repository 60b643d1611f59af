// Benchmarks measure what users run: the framework package as built in packages/trellis/dist/ (`npm run bench`
// builds it first), like the peers' published JavaScript. The TypeScript sources through a loader are only the
// fallback, and slower: the loader turns every call between modules into a getter call.
import { existsSync } from 'node:fs';

const compiled = existsSync(new URL('../packages/trellis/dist/index.js', import.meta.url));

/** The URL to import one of the framework's entry points from (`ratelimit/index.js`): built, else its source. */
export function packageModule(file: string): string {
  return new URL(compiled ? `../packages/trellis/dist/${file}` : `../packages/trellis/src/${file.replace(/\.js$/, '.ts')}`, import.meta.url).href;
}
