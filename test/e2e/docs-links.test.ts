// The user documentation sends readers only to pages and headings that exist, and to no document a user of
// the package does not have.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

describe('user documentation', () => {
  for (const page of PAGES) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const text = readFileSync(join(REPO, page), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(REPO, page) : resolve(dirname(join(REPO, page)), path);
        assert.ok(existsSync(file), `${page} links to ${target}, which does not exist`);
        if (anchor !== undefined && file.endsWith('.md')) {
          assert.ok(anchors(file).has(anchor), `${page} links to ${target}: no such heading`);
        }
      }
    });
  }

  it('never mentions documents users do not have', () => {
    for (const page of PAGES) {
      const text = readFileSync(join(REPO, page), 'utf8');
      assert.doesNotMatch(text, /SPEC\.md|DESIGN\.md|\bseed\b/i, page);
    }
  });
});
