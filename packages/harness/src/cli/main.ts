#!/usr/bin/env node
// The `trellis` command: dispatches to one module per subcommand.
import { readFileSync } from 'node:fs';
import { commands } from './commands.js';

// Output piped into a reader that stops early (`trellis lint … | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const [name, ...args] = process.argv.slice(2);
// Each command's name, then at least two spaces, then its summary: the column fits the longest name.
const column = Math.max(...Object.keys(commands).map((n) => n.length)) + 2;
const usage = `usage: trellis <command> [options]\n       trellis --version\n\ncommands:\n${Object.entries(commands)
  .map(([n, c]) => `  ${n.padEnd(column)}${c.summary}`)
  .join('\n')}\n`;

if (name === '--version' || name === '-v') {
  // The package's own manifest, two folders up from src/cli/ and from dist/cli/ alike.
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${manifest.version}\n`);
  process.exit(0);
}
if (!name || name === '--help' || name === '-h') {
  process.stdout.write(usage);
  process.exit(name ? 0 : 2);
}
const command = commands[name];
if (!command) {
  process.stderr.write(`trellis: unknown command "${name}"\n\n${usage}`);
  process.exit(2);
}
const code = await (await command.load()).run(args);
if (typeof code === 'number') process.exitCode = code;
