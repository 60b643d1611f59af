// The widget guide shows code the tests run: every code block marked `<!-- from FILE -->` is a contiguous
// excerpt of that file, and the guide's smallest widget answers as it says. (Its "from an empty folder" part
// shows whole files, which guides.test.ts follows.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = readFileSync(`${ROOT}docs/lambda-widgets.md`, 'utf8');
const LOAD = JSON.parse(readFileSync(`${ROOT}test/fixtures/lambda-widget/load.json`, 'utf8'));

const lines = (text: string): string[] => text.split('\n').map((l) => l.trim());

describe('docs/lambda-widgets.md', () => {
  it('every marked code block is an excerpt of its file, line for line', () => {
    const marked = [...GUIDE.matchAll(/<!-- from (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)];
    assert.ok(marked.length >= 6, `the guide marks its code blocks (found ${marked.length})`);
    for (const [, file, block] of marked) {
      const source = lines(readFileSync(`${ROOT}${file}`, 'utf8'));
      const excerpt = lines(block!);
      const at = source.findIndex((_, i) => excerpt.every((line, k) => source[i + k] === line));
      assert.ok(at >= 0, `the block marked from ${file} is in that file:\n${block}`);
    }
    const unmarkedTs = [...GUIDE.matchAll(/(<!-- from \S+ -->\n)?```ts\n/g)].filter((m) => !m[1]);
    assert.deepEqual(unmarkedTs, [], 'no TypeScript block without its source');
  });

  it('the smallest widget of the guide answers its load with its HTML', async () => {
    const { handler } = await import('../fixtures/lambda-widget/hello-widget.js');
    assert.equal(await handler(LOAD), '<h1>Hello</h1>');
  });
});
