/**
 * Console output of in-process functions, kept per invocation like the child processes' output. The global
 * console methods are wrapped once; a call made inside an invocation's async context goes to that
 * invocation's log (Lambda's format), any other call goes to the console as before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';

interface Sink {
  requestId: string;
  parts: string[];
  chars: number;
  open: boolean;
}

const MAX_LOG_CHARS = 1024 * 1024;
const LEVELS = { log: 'INFO', info: 'INFO', warn: 'WARN', error: 'ERROR', debug: 'DEBUG', trace: 'TRACE' } as const;
const storage = new AsyncLocalStorage<Sink>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  for (const [method, level] of Object.entries(LEVELS) as Array<[keyof typeof LEVELS, string]>) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]): void => {
      const sink = storage.getStore();
      if (!sink?.open) return original(...args);
      if (sink.chars >= MAX_LOG_CHARS) return;
      const line = `${new Date().toISOString()}\t${sink.requestId}\t${level}\t${format(...args)}\n`;
      const room = MAX_LOG_CHARS - sink.chars;
      sink.parts.push(line.length > room ? `${line.slice(0, room)}\n[log truncated: more than 1 MiB in one invocation]\n` : line);
      sink.chars += Math.min(line.length, room);
    };
  }
}

/**
 * Runs `fn` with console output captured for `requestId`; `logs()` returns it and stops capturing.
 *
 * @example
 * const run = captureConsole('req-1', () => handler(event, context));
 * const text = run.logs();
 */
export function captureConsole<T>(requestId: string, fn: () => T): { result: T; logs: () => string } {
  install();
  const sink: Sink = { requestId, parts: [], chars: 0, open: true };
  const result = storage.run(sink, fn);
  return {
    result,
    logs: () => {
      sink.open = false;
      return sink.parts.join('');
    },
  };
}
