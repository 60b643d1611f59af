// Compiles the benchmarks to plain JavaScript in .bench/ (the same depth as bench/, so their relative paths
// hold), so that every benchmark process, ours and the peers' servers alike, runs in plain `node` with no
// TypeScript loader. Packages (trellis, trellis-harness and the peers) stay imports: they load their published
// JavaScript, Trellis's from packages/*/dist (`npm run build` first). `npm run bench` runs this.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const bench = join(root, 'bench');
const out = join(root, '.bench');
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: readdirSync(bench).filter((name) => name.endsWith('.ts')).map((name) => join(bench, name)),
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
});
// Plain JavaScript already: the Lambda peers' apps.
for (const name of readdirSync(bench).filter((n) => n.endsWith('.mjs'))) cpSync(join(bench, name), join(out, name));
