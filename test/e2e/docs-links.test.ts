// The user documentation sends readers only to pages, headings and files that exist, to no document a user of
// the package does not have, and to no registry page of a package not published there; it says what the code
// accepts, and installs the harness's tarball only with the framework's, which it depends on.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NODE_RUNTIMES, PYTHON_RUNTIMES } from '../../packages/harness/src/dashboard/functions/runtimes.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Every README a user reads: the repository's, the packages', the examples' (which the templates copy). */
const READMES = [
  'README.md',
  ...['packages', 'examples'].flatMap((dir) =>
    readdirSync(join(REPO, dir))
      .map((name) => `${dir}/${name}/README.md`)
      .filter((file) => existsSync(join(REPO, file))),
  ),
];
/** The packages of this repository, none of which is on the npm registry yet. */
const UNPUBLISHED = ['trellis', 'trellis-harness', 'create-trellis'];

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

describe('what the documentation tells users to run', () => {
  it('links no npm registry page of a package that is not published there', () => {
    for (const page of [...new Set([...PAGES, ...READMES])]) {
      const text = readFileSync(join(REPO, page), 'utf8');
      for (const [, name] of text.matchAll(/npmjs\.com\/package\/([\w@./-]+?)(?=[)\s#?]|$)/gm)) {
        assert.ok(!UNPUBLISHED.includes(name!), `${page} links the npm registry page of ${name}, which is not published`);
      }
    }
  });

  it("installs the harness's tarball only together with the framework's, or after it in the same block", () => {
    let seen = 0;
    for (const page of [...new Set([...PAGES, ...READMES])]) {
      const text = readFileSync(join(REPO, page), 'utf8');
      for (const [, block] of text.matchAll(/^```(?:sh|bash|shell)[^\n]*\n([\s\S]*?)^```$/gm)) {
        let framework = false;
        for (const line of block!.split('\n')) {
          const installs = /\bnpm (?:install|i|add)\b/.test(line);
          if (installs && /trellis-\d+\.\d+\.\d+\.tgz/.test(line)) framework = true;
          if (installs && /trellis-harness-\d+\.\d+\.\d+\.tgz/.test(line)) {
            seen++;
            assert.ok(framework, `${page}: "${line}" installs the harness before the framework, which it depends on`);
          }
        }
      }
    }
    assert.ok(seen >= 5, `found ${seen} installs of the harness's tarball`);
  });

  it("names the harness's example setup modules where the harness package has them", () => {
    for (const page of [...new Set([...PAGES, ...READMES])]) {
      const text = readFileSync(join(REPO, page), 'utf8');
      assert.doesNotMatch(text, /node_modules\/trellis\/examples/, `${page} looks for the harness's examples in the framework`);
      for (const [, path] of text.matchAll(/node_modules\/trellis-harness\/(examples\/[\w./-]+\.c?js)/g)) {
        assert.ok(existsSync(join(REPO, 'packages', 'harness', path!)), `${page} names ${path}, which trellis-harness does not have`);
      }
    }
    const shipped = (JSON.parse(readFileSync(join(REPO, 'packages', 'harness', 'package.json'), 'utf8')) as { files: string[] }).files;
    assert.ok(shipped.includes('examples'), 'trellis-harness ships its examples');
  });

  it('docs/functions-file.md lists every runtime the functions file accepts, and no other', () => {
    const doc = readFileSync(join(REPO, 'docs', 'functions-file.md'), 'utf8');
    const row = /^\| `runtime` \|([^|]*)\|([^|]*)\|/m.exec(doc);
    assert.ok(row, 'docs/functions-file.md has a row for runtime');
    const allowed = [...row[2]!.matchAll(/`"([^"]+)"`/g)].map((m) => m[1]);
    assert.deepEqual(allowed.sort(), ['nodejs', ...NODE_RUNTIMES, 'python', ...PYTHON_RUNTIMES].sort());
    assert.equal(row[1]!.trim(), '`"nodejs"`', 'the default');
  });
});
