/**
 * A guide in docs/ as a test follows it: its code blocks in order, each a file to write (```ts title="app.ts"```)
 * or shell commands to run (```sh```); commands that need an AWS account (```sh needs-aws```) are read, not run.
 *
 * @example
 * const steps = readGuide('docs/lambda.md', '## From an empty folder to a deployed API');
 * const { cwd } = await followGuide(steps, { dir, env: { TRELLIS_PACKS: packs } });
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type GuideStep =
  | { readonly kind: 'file'; readonly path: string; readonly body: string }
  | { readonly kind: 'shell'; readonly script: string; readonly needsAws: boolean };

const SHELLS = new Set(['sh', 'bash', 'shell']);

/** The code blocks of one section of a Markdown file (from its heading to the next heading of its level or above). */
export function readGuide(file: string, heading: string): GuideStep[] {
  const text = `\n${readFileSync(file, 'utf8')}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = text.slice(start + heading.length + 2);
  const next = new RegExp(`^#{1,${level}} `, 'm').exec(rest.replace(/^```[\s\S]*?^```$/gm, (block) => block.replace(/^#/gm, ' ')));
  const section = next ? rest.slice(0, next.index) : rest;
  const steps: GuideStep[] = [];
  for (const [, lang, info, body] of section.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const title = /\btitle="([^"]+)"/.exec(info!)?.[1];
    if (title !== undefined) steps.push({ kind: 'file', path: title, body: body! });
    else if (SHELLS.has(lang!)) steps.push({ kind: 'shell', script: body!, needsAws: /\bneeds-aws\b/.test(info!) });
  }
  return steps;
}

export interface FollowOptions {
  /** The folder the guide starts in. */
  readonly dir: string;
  /** Variables the commands see, besides this process's own. */
  readonly env?: Readonly<Record<string, string>>;
  /** How long one block of commands may take; default 5 minutes. */
  readonly timeoutMs?: number;
}

/** Writes the files and runs the commands of a guide in order, as a reader would; where the reader ends up. */
export async function followGuide(steps: readonly GuideStep[], options: FollowOptions): Promise<{ cwd: string; output: string }> {
  let cwd = options.dir;
  let output = '';
  const scratch = mkdtempSync(join(tmpdir(), 'trellis-guide-'));
  try {
    for (const step of steps) {
      if (step.kind === 'file') {
        mkdirSync(dirname(join(cwd, step.path)), { recursive: true });
        writeFileSync(join(cwd, step.path), step.body);
        continue;
      }
      if (step.needsAws) continue;
      const where = join(scratch, 'cwd');
      const script = `set -euo pipefail\ncd ${JSON.stringify(cwd)}\n${step.script}\npwd > ${JSON.stringify(where)}\n`;
      output += await shell(
        script,
        { ...process.env, NODE_TEST_CONTEXT: undefined, NODE_OPTIONS: undefined, ...options.env },
        options.timeoutMs ?? 300_000,
      );
      cwd = readFileSync(where, 'utf8').trim();
    }
    return { cwd, output };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function shell(script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`the guide's commands failed (${signal ?? `exit ${code}`}):\n${script}\n${out}`));
    });
  });
}
