/**
 * Runs every hook scenario of user-code-hooks.ts three ways — with an implementation that throws, one whose
 * promise rejects, and one that answers something unusable — and prints one JSON line per run: what each
 * request got, how often the hook was called, and the lines logged about a failing hook (from the app's
 * Logger, or from stderr when the Logger itself is the hook). Its last line is a final request's status.
 * test/e2e/user-code-guard.test.ts starts it with --unhandled-rejections=strict, so a rejection that Trellis
 * leaves unhandled ends it before that line.
 */
import { inspect } from 'node:util';
import { createApp, route, type Logger } from 'trellis';
import { HOOKS, type Implementation } from './user-code-hooks.js';

export type Breakage = 'throws' | 'rejects' | 'unusable';

export interface Run {
  readonly hook: string;
  readonly breakage: Breakage;
  readonly answers?: readonly string[];
  /** What the scenario itself threw, if it did (the app failed to answer). */
  readonly error?: string;
  readonly calls: number;
  /** Lines that report a failing hook: the hook they name, and the line. */
  readonly failures: readonly { readonly hook: unknown; readonly line: string }[];
}

const failures: { hook: unknown; line: string }[] = [];
const heard = (message: unknown, details: unknown) => {
  const hook = (details as { hook?: unknown } | undefined)?.hook;
  if (hook !== undefined) failures.push({ hook, line: typeof message === 'string' ? message : inspect(message) });
};
const logger: Logger = { debug: heard, warn: heard, error: heard };
// A Logger that fails has its lines written to stderr: what is said there about a hook counts too.
console.error = (message?: unknown, details?: unknown) => heard(message, details);
console.warn = (message?: unknown, details?: unknown) => heard(message, details);

/** Lets what was not waited for (observers, async loggers, a rejected promise's handler) settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

function implementation(hook: string, breakage: Breakage, unusable: unknown, sync: boolean): Implementation {
  if (breakage === 'throws')
    return () => {
      throw new Error(`${hook} broke`);
    };
  if (breakage === 'rejects') return () => Promise.reject(new Error(`${hook} broke`));
  return sync ? () => unusable : () => Promise.resolve(unusable);
}

for (const [hook, scenario] of Object.entries(HOOKS)) {
  const breakages: Breakage[] = scenario.unusable === undefined ? ['throws', 'rejects'] : ['throws', 'rejects', 'unusable'];
  for (const breakage of breakages) {
    failures.length = 0;
    let calls = 0;
    const broken = implementation(hook, breakage, scenario.unusable?.value, scenario.sync === true);
    const counted: Implementation = (...args) => {
      calls++;
      return broken(...args);
    };
    let answers: string[] | undefined;
    let error: string | undefined;
    try {
      answers = await scenario.run(counted, logger);
    } catch (thrown) {
      error = inspect(thrown);
    }
    await settle();
    const run: Run = { hook, breakage, answers, error, calls, failures: [...failures] };
    process.stdout.write(`${JSON.stringify(run)}\n`);
  }
}

const app = createApp();
app.route(route('GET', '/', () => 'still here'));
const final = await app.inject({ url: '/' });
process.stdout.write(`${JSON.stringify({ final: final.statusCode, body: final.body })}\n`);
