// Copies the harness web page's assets (plain ES modules, CSS and HTML) next to the compiled module in dist/,
// where src/harness/web/index.ts reads them at run time.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { URL, fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../src/harness/web/assets/', import.meta.url));
const to = fileURLToPath(new URL('../dist/harness/web/assets/', import.meta.url));
if (!existsSync(from)) {
  console.error(`copy-web-assets: ${from} is missing`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
