// `trellis lint <file|->`: what the CloudWatch console would strip from widget HTML, and broken actions.
import { readFile } from 'node:fs/promises';
import { lint, type Finding } from '../lint/index.js';

const USAGE = `usage: trellis lint [--json] [--errors-only] [--max-warnings N] <file|-> [more files]

Reports the HTML the CloudWatch console would strip from a custom widget (scripts, event handlers,
javascript: URLs, iframes, …) and <cwdb-action> elements that can never work. "-" reads standard input.

  --json             print the findings as a JSON array (each with its "file")
  --errors-only      report errors only; warnings are neither printed nor counted
  --max-warnings N   exit 1 only for errors or more than N warnings (for CI)
  -h, --help

Exit status: 0 no findings (or within --max-warnings), 1 findings, 2 usage or read error.
`;

/** The options after the files are taken out, or a usage problem. */
function parseOptions(args: string[]): { json: boolean; errorsOnly: boolean; maxWarnings: number | undefined; files: string[] } | string {
  const files: string[] = [];
  let json = false;
  let errorsOnly = false;
  let maxWarnings: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--errors-only') errorsOnly = true;
    else if (a === '--max-warnings' || a.startsWith('--max-warnings=')) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (value === undefined || !/^\d+$/.test(value))
        return `--max-warnings takes a whole number ≥ 0, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`;
      maxWarnings = Number(value);
    } else if (a === '-' || !a.startsWith('-')) files.push(a);
    else return `unknown option ${a}`;
  }
  if (files.length === 0) return 'no file given (use "-" for standard input)';
  return { json, errorsOnly, maxWarnings, files };
}

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
  const options = parseOptions(args);
  if (typeof options === 'string') {
    process.stderr.write(`trellis lint: ${options}\n\n${USAGE}`);
    return 2;
  }
  const { json, errorsOnly, maxWarnings, files } = options;
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
    for (const f of lint(source)) if (!errorsOnly || f.severity === 'error') all.push({ file: name, ...f });
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  } else if (all.length === 0) {
    process.stdout.write(`no findings in ${files.length === 1 ? (files[0] === '-' ? '<stdin>' : files[0]) : `${files.length} files`}\n`);
  } else {
    const errors = all.filter((f) => f.severity === 'error').length;
    process.stdout.write(`${all.map((f) => describeFinding(f.file, f)).join('\n')}\n\n`);
    process.stdout.write(
      `${all.length} finding${all.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${all.length - errors} warning${all.length - errors === 1 ? '' : 's'})\n`,
    );
  }
  const errorCount = all.filter((f) => f.severity === 'error').length;
  if (maxWarnings !== undefined) return errorCount > 0 || all.length - errorCount > maxWarnings ? 1 : 0;
  return all.length > 0 ? 1 : 0;
}
