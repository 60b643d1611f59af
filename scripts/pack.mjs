// `npm run pack [-- <folder>]`: builds the packages and writes their release tarballs (trellis, trellis-harness,
// create-trellis) into <folder> (default: packs/), then prints each tarball's path. Install them with
// `npm install ./packs/trellis-<version>.tgz`.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = resolve(process.argv[2] ?? join(root, 'packs'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
mkdirSync(out, { recursive: true });
execFileSync(npm, ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const packed = JSON.parse(
  execFileSync(npm, ['pack', '--workspaces', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
);
for (const { filename } of packed) console.log(join(out, filename));
