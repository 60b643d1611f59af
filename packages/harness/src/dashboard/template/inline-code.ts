/**
 * Code written into the template itself (`Code.ZipFile`, SAM's `InlineCode`), put where the harness can run it:
 * as Lambda does, `index.js` for Node.js and `index.py` for Python, in a folder of the harness's own private
 * folder (the same code reuses the same folder). Its packages resolve from the template's folder.
 */
import { privateCodeFolder } from '../functions/index.js';

/**
 * The folder holding `code` as the module a handler such as `index.handler` names.
 *
 * @example
 * inlineCodeFolder('exports.handler = async () => "<p>hi</p>";', 'nodejs22.x', '/srv/stack'); // /tmp/trellis-Ab12/code/3f…
 */
export function inlineCodeFolder(code: string, runtime: string, project: string): string {
  return privateCodeFolder(code, runtime.startsWith('python') ? 'index.py' : 'index.js', project);
}
