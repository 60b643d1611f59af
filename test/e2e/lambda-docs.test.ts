// The code in docs/lambda.md is the code the tests run: every block labelled with a file name is that file of
// examples/lambda-api/ as a project outside this repository writes it (imports from the package, paths
// relative to the project), and the template it shows is valid too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { parseTemplate } from '../support/cloudformation-yaml.js';
import { validateTemplate } from '../support/cloudformation-validate.js';
import { httpEvent, readResult } from '../support/lambda-events.js';

const EXAMPLE = new URL('../../examples/lambda-api/', import.meta.url);
const DOC = readFileSync(new URL('../../docs/lambda.md', import.meta.url), 'utf8');

/** The example file as it reads in a project of its own. */
function asInAProject(name: string, text: string): string {
  let out = text
    .replace(/'\.\.\/\.\.\/src\/index\.js'/g, "'trellis'")
    .replace(/'\.\.\/\.\.\/src\/([a-z/]+)\/index\.js'/g, "'trellis/$1'");
  if (name.endsWith('.yaml')) {
    out = out
      .replace('      # The repository root: the build bundles examples/lambda-api/handler.ts with the sources it imports.\n', '')
      .replace('CodeUri: ../../', 'CodeUri: ./')
      .replace('- examples/lambda-api/handler.ts', '- handler.ts');
  }
  return out;
}

const blocks = [...DOC.matchAll(/```(ts|yaml)\n(?:\/\/|#) ([\w.-]+)\n([\s\S]*?)```/g)].map((m) => ({ name: m[2]!, body: m[3]! }));

describe('docs/lambda.md', () => {
  it('shows the example files', () => {
    assert.deepEqual(blocks.map((b) => b.name).sort(), ['app.ts', 'gateway-identity.ts', 'handler.ts', 'hello.ts', 'template.yaml']);
    for (const block of blocks) {
      const file = new URL(block.name, EXAMPLE);
      assert.ok(existsSync(file), `examples/lambda-api/${block.name} exists`);
      assert.equal(block.body, asInAProject(block.name, readFileSync(file, 'utf8')), `the block for ${block.name} is the example file`);
    }
  });

  it('shows a template that is valid as a project writes it', () => {
    const template = blocks.find((b) => b.name === 'template.yaml')!;
    assert.deepEqual(validateTemplate(parseTemplate(template.body, 'the template in docs/lambda.md')), []);
  });

  it('the README shows the same first handler', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes("'trellis/lambda'"));
    assert.equal(block, asInAProject('hello.ts', readFileSync(new URL('hello.ts', EXAMPLE), 'utf8')));
  });

  it('shows a first handler that answers', async () => {
    const { handler } = (await import('../../examples/lambda-api/hello.js')) as { handler: (e: unknown) => Promise<unknown> };
    const out = readResult(await handler(httpEvent('http-api', { path: '/hello' })));
    assert.equal(out.statusCode, 200);
    assert.deepEqual(JSON.parse(out.body), { hello: 'world' });
  });
});
