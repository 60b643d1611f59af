/**
 * Console output of in-process functions, kept per invocation like the child processes' output. The global
 * console methods are wrapped once; a call made inside an invocation's async context goes to that
 * invocation's log (Lambda's format), any other call goes to the console as before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';

interface Sink {
  requestId: string;
  log: LogBuffer;
  open: boolean;
}

const MAX_LOG_CHARS = 1024 * 1024;
const TRUNCATED = '\n[log truncated: more than 1 MiB in one invocation]\n';
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
      if (!sink.log.full) sink.log.add(`${new Date().toISOString()}\t${sink.requestId}\t${level}\t${format(...args)}\n`);
    };
  }
}

/** Runs `fn` with console output captured for `requestId`; `logs()` returns it and stops capturing. */
export function captureConsole<T>(requestId: string, fn: () => T): { result: T; logs: () => string } {
  install();
  const sink: Sink = { requestId, log: new LogBuffer(), open: true };
  const result = storage.run(sink, fn);
  return {
    result,
    logs: () => {
      sink.open = false;
      return sink.log.take();
    },
  };
}

/** What one invocation (or an init phase) printed, up to 1 MiB: past it the log is marked truncated once and nothing more is kept. */
export class LogBuffer {
  #parts: string[] = [];
  #chars = 0;

  get full(): boolean {
    return this.#chars > MAX_LOG_CHARS;
  }

  add(text: string): void {
    if (this.full) return;
    const room = MAX_LOG_CHARS - this.#chars;
    this.#parts.push(text.length > room ? text.slice(0, room) + TRUNCATED : text);
    this.#chars = text.length > room ? MAX_LOG_CHARS + 1 : this.#chars + text.length;
  }

  /** The log so far, which is then emptied. */
  take(): string {
    const text = this.#parts.join('');
    this.#parts = [];
    this.#chars = 0;
    return text;
  }
}
