// Benchmarks measure what users run: the compiled package in dist/ (`npm run bench` builds it first), like the
// peers' published JavaScript. The TypeScript sources through a loader are only the fallback, and slower: the
// loader turns every call between modules into a getter call.
import { existsSync } from 'node:fs';

const compiled = existsSync(new URL('../dist/index.js', import.meta.url));

/** The URL to import a module of the package from (`ratelimit/index.js`): its compiled file, else its source. */
export function packageModule(file: string): string {
  return new URL(compiled ? `../dist/${file}` : `../src/${file.replace(/\.js$/, '.ts')}`, import.meta.url).href;
}
