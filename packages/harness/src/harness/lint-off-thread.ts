// `/api/lint` runs the linter off the main thread, one document at a time, with a time limit: parsing HTML
// is linear, but adversarial markup (thousands of open formatting elements, nested tables) costs several
// microseconds a byte, so a 5 MiB body could otherwise hold every other request of the harness for seconds.
import { Worker } from 'node:worker_threads';
import { lint, type Finding } from '../lint/index.js';
import { HttpError } from 'trellis';

/** Documents up to this many characters are linted at once on the main thread (well under 0.2 s). */
const INLINE_CHARS = 16 * 1024;
/** Documents waiting for the worker beyond the one it is linting; more are refused (429) rather than held. */
const MAX_WAITING = 8;
/** How long one document may take in the worker. */
export const LINT_TIME_LIMIT_MS = 10_000;

interface Job {
  id: number;
  html: string;
  timeoutMs: number;
  resolve(findings: Finding[]): void;
  reject(error: unknown): void;
}

let worker: Worker | null = null;
let running: (Job & { timer: NodeJS.Timeout }) | null = null;
const queue: Job[] = [];
let nextId = 1;

function startWorker(): Worker {
  // The build runs lint-worker.js; from source, the worker registers tsx itself before loading the .ts entry
  // (Node.js does not apply the parent's loader to a worker's entry module).
  const fromSource = import.meta.url.endsWith('.ts');
  const w = fromSource
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./lint-worker.ts', import.meta.url).href)}); });`,
        { eval: true },
      )
    : new Worker(new URL('./lint-worker.js', import.meta.url));
  w.on('message', (msg: { id: number; findings?: Finding[]; error?: string }) => {
    if (!running || msg.id !== running.id) return;
    const job = running;
    finish();
    if (msg.findings) job.resolve(msg.findings);
    else job.reject(new Error(`The linter failed: ${msg.error}`));
  });
  w.on('error', (error) => {
    const job = running;
    worker = null;
    finish();
    job?.reject(error);
  });
  w.on('exit', (code) => {
    if (worker !== w) return; // ended on purpose, after a timeout
    worker = null;
    const job = running;
    finish();
    job?.reject(new Error(`The lint worker stopped (exit code ${code}).`));
  });
  // After the listeners: adding one refs the worker again. An idle worker never keeps the process alive.
  w.unref();
  return w;
}

function finish(): void {
  if (running) clearTimeout(running.timer);
  running = null;
  pump();
}

function pump(): void {
  if (running || queue.length === 0) return;
  const job = queue.shift()!;
  worker ??= startWorker();
  const current = worker;
  const timer = setTimeout(() => {
    // The only way to stop a parse in progress: end the worker; the next document gets a fresh one.
    worker = null;
    void current.terminate();
    finish();
    job.reject(
      new HttpError(
        422,
        `Linting took longer than ${job.timeoutMs / 1000} s; the HTML (${job.html.length} characters) is too costly to analyse. Send a smaller document.`,
        {
          limitSeconds: job.timeoutMs / 1000,
        },
      ),
    );
  }, job.timeoutMs);
  running = { ...job, timer };
  current.postMessage({ id: job.id, html: job.html });
}

/**
 * Lints HTML without holding up the event loop: small documents at once, larger ones in a worker thread,
 * one at a time, each refused with a 422 {@link HttpError} when it takes longer than `timeoutMs`.
 *
 * @example
 * const findings = await lintOffThread(html);
 */
export function lintOffThread(html: string, options: { timeoutMs?: number } = {}): Promise<Finding[]> {
  if (html.length <= INLINE_CHARS) return Promise.resolve(lint(html));
  if (queue.length >= MAX_WAITING) {
    return Promise.reject(
      new HttpError(
        429,
        `The linter is busy with ${queue.length + 1} large documents; send this one again shortly.`,
        {},
        { 'retry-after': '1' },
      ),
    );
  }
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, html, timeoutMs: options.timeoutMs ?? LINT_TIME_LIMIT_MS, resolve, reject });
    pump();
  });
}
