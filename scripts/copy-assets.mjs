// Copies the files that compiled modules read at run time next to them in dist/: the harness web page's assets
// (plain ES modules, CSS and HTML) and the programs that function child processes run (Node.js and Python).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { URL, fileURLToPath } from 'node:url';

for (const folder of ['harness/web/assets/', 'dashboard/functions/runtime/']) {
  const from = fileURLToPath(new URL(`../src/${folder}`, import.meta.url));
  const to = fileURLToPath(new URL(`../dist/${folder}`, import.meta.url));
  if (!existsSync(from)) {
    console.error(`copy-assets: ${from} is missing`);
    process.exit(1);
  }
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
