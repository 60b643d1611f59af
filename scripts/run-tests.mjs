// Builds the packages, then runs every test file through Node's test runner with tsx (Node.js 22 does not expand
// globs itself). Test files load the packages' TypeScript sources (the "trellis-source" export condition);
// programs the tests start as a user would (the CLI, bundles, packed tarballs) load the fresh dist/.
// Usage: npm test [-- path-or-substring ...]  (filters the file list when arguments are given)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['packages', 'test', 'examples'];
const files = [];
function walk(dir) {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist' || name === 'templates') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.test\.(ts|mts)$/.test(name)) files.push(relative(process.cwd(), path));
  }
}
roots.forEach(walk);
files.sort();
const filters = process.argv.slice(2);
const selected = filters.length ? files.filter((f) => filters.some((x) => f.includes(x))) : files;
if (selected.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', '--silent', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) {
  console.error('npm test: the build failed (npm run build shows why)');
  process.exit(build.status ?? 1);
}
const result = spawnSync(
  process.execPath,
  // TAP on every Node.js version (Node.js 24 would otherwise print its spec reporter when not on a terminal).
  ['--conditions=trellis-source', '--import', 'tsx', '--test', '--test-reporter=tap', '--test-concurrency=2', ...selected],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' } },
);
process.exit(result.status ?? 1);
