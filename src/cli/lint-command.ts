// `trellis lint <file|->`: what the CloudWatch console would strip from widget HTML, and broken actions.
import { readFile } from 'node:fs/promises';
import { lint, type Finding } from '../lint/index.js';

const USAGE = `usage: trellis lint [--json] <file|-> [more files]

Reports the HTML the CloudWatch console would strip from a custom widget (scripts, event handlers,
javascript: URLs, iframes, …) and <cwdb-action> elements that can never work. "-" reads standard input.

  --json   print the findings as a JSON array (each with its "file")
  -h, --help

Exit status: 0 no findings, 1 findings, 2 usage or read error.
`;

async function readInput(path: string): Promise<string> {
  if (path !== '-') return readFile(path, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function describeFinding(file: string, f: Finding): string {
  const where = `${file}:${f.line}:${f.column}`;
  return `${where}  ${f.severity.padEnd(7)}  ${f.rule.padEnd(24)}  ${f.message}`;
}

/**
 * Runs the subcommand.
 *
 * @example
 * await run(['widget.html']); // prints findings, returns 1 when there are any
 */
export async function run(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const json = args.includes('--json');
  const unknown = args.filter((a) => a.startsWith('-') && a !== '-' && a !== '--json');
  const files = args.filter((a) => a === '-' || !a.startsWith('-'));
  if (unknown.length > 0 || files.length === 0) {
    const problem = unknown.length > 0 ? `unknown option ${unknown[0]}` : 'no file given (use "-" for standard input)';
    process.stderr.write(`trellis lint: ${problem}\n\n${USAGE}`);
    return 2;
  }
  const all: Array<Finding & { file: string }> = [];
  for (const file of files) {
    let source: string;
    try {
      source = await readInput(file);
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
      process.stderr.write(`trellis lint: cannot read ${file}: ${reason}\n`);
      return 2;
    }
    const name = file === '-' ? '<stdin>' : file;
    for (const f of lint(source)) all.push({ file: name, ...f });
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  } else if (all.length === 0) {
    process.stdout.write(`no findings in ${files.length === 1 ? (files[0] === '-' ? '<stdin>' : files[0]) : `${files.length} files`}\n`);
  } else {
    const errors = all.filter((f) => f.severity === 'error').length;
    process.stdout.write(`${all.map((f) => describeFinding(f.file, f)).join('\n')}\n\n`);
    process.stdout.write(`${all.length} finding${all.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${all.length - errors} warning${all.length - errors === 1 ? '' : 's'})\n`);
  }
  return all.length > 0 ? 1 : 0;
}
