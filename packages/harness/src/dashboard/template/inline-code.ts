/**
 * Code written into the template itself (`Code.ZipFile`, SAM's `InlineCode`), put where the harness can run it:
 * as Lambda does, `index.js` for Node.js and `index.py` for Python, in a folder of the system's temporary
 * folder named after the code's hash (the same code reuses the same folder).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder holding `code` as the module a handler such as `index.handler` names.
 *
 * @example
 * inlineCodeFolder('exports.handler = async () => "<p>hi</p>";', 'nodejs22.x'); // /tmp/trellis-inline-code/3f…/
 */
export function inlineCodeFolder(code: string, runtime: string): string {
  const file = runtime.startsWith('python') ? 'index.py' : 'index.js';
  const hash = createHash('sha256').update(file).update('\0').update(code).digest('hex').slice(0, 20);
  const folder = join(tmpdir(), 'trellis-inline-code', hash);
  const path = join(folder, file);
  let written: string | undefined;
  try {
    written = readFileSync(path, 'utf8');
  } catch {
    written = undefined;
  }
  if (written !== code) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path, code);
  }
  return folder;
}
