// Copies the repository's example projects into templates/, which the package ships: each template is an
// example as it stands, tested in the repository. npm leaves `.gitignore` files out of a package, so they
// travel as `gitignore` and create-trellis names them back.
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
/** Template name → example folder. */
const TEMPLATES = { 'lambda-api': 'lambda-api', 'widget-lambda': 'lambda-widget', 'widget-project': 'widget-project' };
// screenshots: golden images a run of an example's visual test wrote in the repository, for its platform only.
const SKIP = new Set(['node_modules', 'dist', '.aws-sam', 'package-lock.json', 'screenshots']);

const templates = join(root, 'templates');
rmSync(templates, { recursive: true, force: true });
for (const [name, example] of Object.entries(TEMPLATES)) {
  const from = join(examples, example);
  if (!existsSync(from)) throw new Error(`copy-templates: ${from} is missing`);
  const to = join(templates, name);
  cpSync(from, to, { recursive: true, filter: (path) => !SKIP.has(path.split(/[\\/]/).pop()) });
  if (existsSync(join(to, '.gitignore'))) renameSync(join(to, '.gitignore'), join(to, 'gitignore'));
}
