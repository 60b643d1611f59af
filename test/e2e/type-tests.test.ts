// Typed handler input is held by the type checker: the type tests in test/types compile, and a handler that
// reads a field its schema does not have does not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Type-checks `files` with the repository's settings; returns the compiler's output and status. */
function typeCheck(files: string[]): { status: number | null; output: string } {
  const dir = mkdtempSync(join(ROOT, 'test', 'types', '.check-'));
  try {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.base.json',
        compilerOptions: { noEmit: true, customConditions: ['trellis-source'] },
        files,
      }),
    );
    const run = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 120_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the type tests of typed input compile', { timeout: 180_000 }, () => {
  const { status, output } = typeCheck(['../typed-input.types.ts']);
  assert.equal(status, 0, output);
});

test('a handler that reads a field its schema does not have fails to compile, naming the field', { timeout: 180_000 }, () => {
  const fixture = join(ROOT, 'test', 'types', '.wrong-field.ts');
  writeFileSync(
    fixture,
    [
      "import { z } from 'zod';",
      "import { Validate, route } from '../../packages/trellis/src/index.js';",
      "export const r = route('POST', '/orders', [Validate({ body: z.object({ sku: z.string() }) })], (ctx) => ctx.body.price);",
      '',
    ].join('\n'),
  );
  try {
    const { status, output } = typeCheck(['../.wrong-field.ts']);
    assert.notEqual(status, 0);
    assert.match(output, /\.wrong-field\.ts\(3,\d+\): error TS2339: Property 'price' does not exist on type '\{ sku: string; \}'/);
  } finally {
    rmSync(fixture, { force: true });
  }
});
