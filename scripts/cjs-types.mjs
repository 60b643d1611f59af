// Writes a CommonJS twin (`.d.cts`) of every declaration file in dist/, for TypeScript projects that compile to
// CommonJS with "module": "node16" or "nodenext": they `require()` the package's ES modules (Node.js 20.19 and
// later load them synchronously), and these declarations describe what that require returns.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// Relative specifiers name the twin of the file they point at: './x.js' becomes './x.cjs' (read as './x.d.cts').
const RELATIVE = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.js(['"])/g;

// Type-only imports from other packages are read as ES module imports, which a CommonJS declaration must say.
const TYPE_IMPORT = /^(import type [^;]+? from (['"])(?!node:|\.)[^'"]+\2);$/gm;

let count = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8').replace(RELATIVE, '$1$2.cjs$3').replace(TYPE_IMPORT, "$1 with { 'resolution-mode': 'import' };");
      writeFileSync(path.slice(0, -'.d.ts'.length) + '.d.cts', text);
      count++;
    }
  }
}
walk(dist);
if (count === 0) {
  console.error('cjs-types: no declaration files in dist/ (run tsc first)');
  process.exit(1);
}
