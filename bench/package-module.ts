// Benchmarks measure what users run: the framework as published (its packages/trellis/dist, which
// `npm run bench` builds first), imported by its package name like the peers' packages.

/** The specifier to import one of the framework's entry points by (`ratelimit/index.js` → `trellis/ratelimit`). */
export function packageModule(file: string): string {
  const subpath = file.replace(/(^|\/)index\.js$/, '');
  return subpath === '' ? 'trellis' : `trellis/${subpath}`;
}
