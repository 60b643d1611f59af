// A template that would make more than the harness can hold (a YAML alias is resolved each time it is used)
// ends in a TemplateError that names the place, as every other template problem does: never a RangeError, a
// stack trace or an exhausted heap. Through the command line: exit code 1 and one line on stderr.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { loadTemplate, resolveTemplate, TemplateError } from '../../packages/harness/src/dashboard/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'trellis-template-bounds-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEAD = `Resources:
  Board:
    Type: AWS::CloudWatch::Dashboard
    Properties:
      DashboardName: board
`;

/** A template whose DashboardBody is `body` (YAML lines at the property's indentation), written to a file. */
function template(name: string, body: string[]): string {
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, `${HEAD}      DashboardBody: ${body.join('\n')}\n`);
  return file;
}

/** 4 MiB of text under the anchor `&big`, and `count` aliases of it: a template of 4 MiB. */
const BIG = 4 * 1024 * 1024 - 200;
const big = `&big ${'x'.repeat(BIG)}`;
/** The string the Join would make: the anchored string and its 140 aliases. */
const JOINED = (141 * BIG).toLocaleString('en');
const aliases = (count: number, indent: string): string[] => Array.from({ length: count }, () => `${indent}- *big`);

async function rejection(work: Promise<unknown>): Promise<TemplateError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof TemplateError, `a TemplateError, got ${(error as Error)?.stack ?? String(error)}`);
    return error;
  }
  assert.fail('expected a TemplateError');
}

describe('templates that would make too much', { timeout: 60_000 }, () => {
  const join140 = template('join', ['!Join', '        - ""', `        - - ${big}`, ...aliases(140, '          ')]);

  it('a !Join of 140 aliases of a 4 MiB string is a TemplateError naming the Join, not a RangeError', async () => {
    const error = await rejection(loadTemplate(join140));
    assert.equal(error.kind, 'invalid');
    assert.deepEqual(error.path, ['Resources', 'Board', 'Properties', 'DashboardBody', 'Fn::Join']);
    assert.deepEqual(error.position, { line: 7, column: 9 }); // where the Join's list starts
    assert.equal(
      error.problem,
      `Fn::Join makes a string of ${JOINED} characters; the harness resolves strings of at most 10 Mi characters`,
    );
  });

  it('so are a !Sub and a Fn::ToJsonString of the same, and an alias of a list used 900 times', async () => {
    const sub = template('sub', ['!Sub', `        - "${'${V}'.repeat(140)}"`, `        - V: ${big}`]);
    assert.match((await rejection(loadTemplate(sub))).message, /DashboardBody\.Fn::Sub: Fn::Sub makes a string of [\d,]+ characters/);
    const json = template('json', ['', '        Fn::ToJsonString:', `          - ${big}`, ...aliases(140, '          ')]);
    assert.match(
      (await rejection(loadTemplate(json))).message,
      /DashboardBody\.Fn::ToJsonString: Fn::ToJsonString makes a string of more than 10,485,760 characters/,
    );
    const list = `&list [${Array.from({ length: 5000 }, (_, i) => i).join(', ')}]`;
    const many = template('many', [
      '',
      '        Fn::Length:',
      `          - ${list}`,
      ...aliases(900, '          ').map((l) => l.replace('*big', '*list')),
    ]);
    assert.match((await rejection(loadTemplate(many))).message, /visits more than 1,000,000 values/);
  });

  it('anything else thrown while reading a template becomes a TemplateError with its place', () => {
    const hostile = {
      Resources: {
        Board: {
          Type: 'AWS::CloudWatch::Dashboard',
          Properties: {
            DashboardBody: {
              'Fn::ToJsonString': {
                get widgets() {
                  throw new TypeError('a getter failed');
                },
              },
            },
          },
        },
      },
    };
    const error = (() => {
      try {
        resolveTemplate(hostile, { baseDir: work, file: join(work, 'hostile.json') });
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof TemplateError, String(error));
    assert.equal(
      error.message,
      `${join(work, 'hostile.json')}: Resources.Board.Properties.DashboardBody.Fn::ToJsonString: cannot be resolved (TypeError: a getter failed)`,
    );
  });

  it('trellis harness --template refuses it with exit code 1 and one line, no stack trace', () => {
    const run = spawnSync(process.execPath, ['packages/harness/dist/cli/main.js', 'harness', '--template', join140, '--port', '0'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      `trellis harness: ${join140}:7:9: Resources.Board.Properties.DashboardBody.Fn::Join: Fn::Join makes a string of ${JOINED} characters; the harness resolves strings of at most 10 Mi characters\n`,
    );
  });
});
