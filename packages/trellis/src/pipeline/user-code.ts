// The one guard through which Trellis calls code a user gave it: hooks, observers, callbacks, lookups, loggers.
// Whatever that code does — throws, returns a promise that rejects, answers something that cannot be used — the
// request is answered (with the hook's documented default), the process keeps running (no rejection is left
// unhandled), and one line says which hook broke, how, and what was done instead.
import type { ServiceResolver } from '../services/index.js';
import { Logger, consoleLogger } from './logger.js';
import { isThenable } from './runner.js';

/** Where a failure is written: the app's services (their `Logger`), a logger, or, with neither, stderr. */
export type FailureLog = ServiceResolver | Logger | undefined;

/** How one call of user code failed. */
export interface UserCodeFailure {
  /** The hook, as the log line names it. */
  readonly where: string;
  /** It threw, its promise rejected, or it answered something that cannot be used (a promise where an answer is needed at once, too). */
  readonly how: 'threw' | 'rejected' | 'unusable';
  /** What it threw or rejected with; for an answer that cannot be used, a TypeError saying why. */
  readonly error: unknown;
}

/** One hook: the name a user knows it by, what a failure does instead, and how an answer is checked. */
export interface UserHook<T, F = T> {
  /** The option as a user writes it, e.g. `RateLimitConfiguration.refusal`. */
  readonly where: string;
  /** What is done instead, for the log line, e.g. `the default 429 was sent`. */
  readonly instead: string;
  /** Turns an answer into what the call site uses, throwing (a TypeError saying why) for one it cannot use. Default: any answer. */
  readonly accept?: (answer: unknown) => T;
  /** What the call gives when the code failed (after the line is written). */
  readonly fallback: (failure: UserCodeFailure) => F;
}

/** What a hook whose failure the call site answers itself (a 500, say) gives when it failed. */
export const USER_CODE_FAILED: unique symbol = Symbol('trellis.user-code-failed');

/** The fallback of such a hook. */
export const failedMarker = (): typeof USER_CODE_FAILED => USER_CODE_FAILED;

/**
 * Thrown by Trellis code that has already reported a hook's failure (an `ApiKeyAuthenticator` whose lookup
 * broke): a guard around that code applies its own default without writing a second line.
 */
export class UserCodeFailed extends Error {
  override readonly name = 'UserCodeFailed';
}

/**
 * Calls user code that may answer at once or with a promise (which is waited for). Never throws and never
 * rejects: a failure is written once and gives `hook.fallback`. An answer that came at once is given at once.
 */
export function callUserCode<T, F>(log: FailureLog, hook: UserHook<T, F>, call: () => unknown, about?: string): T | F | Promise<T | F> {
  let answer: unknown;
  try {
    answer = call();
  } catch (error) {
    return failed(log, hook, 'threw', error, about);
  }
  if (!isThenable(answer)) return accepted(log, hook, answer, about);
  return Promise.resolve(answer).then(
    (settled) => accepted(log, hook, settled, about),
    (error: unknown) => failed(log, hook, 'rejected', error, about),
  );
}

/**
 * Calls user code whose answer is needed at once. A promise is an answer that cannot be used: it is written as
 * such, and whatever it settles with later is caught, so its rejection cannot end the process.
 */
export function callUserCodeSync<T, F>(log: FailureLog, hook: UserHook<T, F>, call: () => unknown, about?: string): T | F {
  let answer: unknown;
  try {
    answer = call();
  } catch (error) {
    return failed(log, hook, 'threw', error, about);
  }
  if (isThenable(answer)) {
    Promise.resolve(answer).then(undefined, ignore);
    const error = new TypeError('it must answer at once (not with a promise)');
    return failed(log, hook, 'unusable', error, about, answer);
  }
  return accepted(log, hook, answer, about);
}

function ignore(): void {}

function accepted<T, F>(log: FailureLog, hook: UserHook<T, F>, answer: unknown, about: string | undefined): T | F {
  if (hook.accept === undefined) return answer as T;
  try {
    return hook.accept(answer);
  } catch (error) {
    return failed(log, hook, 'unusable', error, about, answer);
  }
}

function failed<T, F>(
  log: FailureLog,
  hook: UserHook<T, F>,
  how: UserCodeFailure['how'],
  error: unknown,
  about: string | undefined,
  answer?: unknown,
): F {
  // Code that reported the failure of a hook inside it has said everything there is to say.
  if (!(error instanceof UserCodeFailed)) {
    const said =
      how === 'threw'
        ? `threw ${errorText(error)}`
        : how === 'rejected'
          ? `rejected with ${errorText(error)}`
          : `answered ${shown(answer)}, which cannot be used: ${error instanceof Error ? error.message : shown(error)}`;
    const message = `${hook.where}${about === undefined ? '' : ` (${about})`} ${said}; ${hook.instead}`;
    writeLog(log, 'error', message, { hook: hook.where, error });
  }
  return hook.fallback({ where: hook.where, how, error });
}

/** An error as a log line shows it. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return shown(error);
}

/** A value as a log line shows it: short, one line. */
export function shown(value: unknown): string {
  if (isThenable(value)) return 'a promise';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (value !== null && typeof value === 'object') {
    try {
      text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  } else text = String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

type Level = 'debug' | 'warn' | 'error';

/** The Logger's methods, each a hook itself: one that fails has its line written to stderr instead. */
const LOGGER_HOOKS: Record<Level, (message: string, details: Record<string, unknown> | undefined) => UserHook<unknown, undefined>> = {
  debug: (message, details) => loggerHook('debug', message, details),
  warn: (message, details) => loggerHook('warn', message, details),
  error: (message, details) => loggerHook('error', message, details),
};

function loggerHook(level: Level, message: string, details: Record<string, unknown> | undefined): UserHook<unknown, undefined> {
  return {
    where: `Logger.${level}`,
    instead: 'its line was written to stderr',
    fallback: () => {
      if (level === 'debug') console.error(`[trellis] debug: ${message}`, details ?? '');
      else consoleLogger[level](message, details);
      return undefined;
    },
  };
}

/** The logger a failure is written with: the app's, found when needed; undefined for stderr. */
function loggerIn(log: FailureLog): Logger | undefined {
  if (log === undefined) return undefined;
  if (typeof (log as ServiceResolver).tryGet !== 'function') return log as Logger;
  try {
    return (log as ServiceResolver).tryGet(Logger);
  } catch {
    return undefined;
  }
}

/**
 * Writes one line with the app's logger (stderr when there is none). The logger is user code too: one that
 * throws or rejects has the line written to stderr, with a line naming the method, and is never waited for.
 */
export function writeLog(log: FailureLog, level: Level, message: string, details?: Record<string, unknown>): void {
  const logger = loggerIn(log);
  if (logger === undefined || logger === consoleLogger) {
    consoleLogger[level]?.(message, details);
    return;
  }
  if (typeof logger[level] !== 'function') {
    if (level !== 'debug') consoleLogger[level](message, details);
    return;
  }
  // Stderr, not the logger that failed, hears of its failure.
  void callUserCode(undefined, LOGGER_HOOKS[level](message, details), () => logger[level]!(message, details));
}

/**
 * A logger whose every line goes through `writeLog`: what the framework's own code logs with, so a Logger that
 * fails never fails the request that logs.
 */
export function guardedLogger(logger: Logger): Logger {
  if (logger === consoleLogger) return logger;
  const guarded: Logger = {
    warn: (message, details) => writeLog(logger, 'warn', message, details),
    error: (message, details) => writeLog(logger, 'error', message, details),
  };
  if (typeof logger.debug === 'function') guarded.debug = (message, details) => writeLog(logger, 'debug', message, details);
  return guarded;
}

/** `accept` of a hook that answers true or false. */
export function aBoolean(answer: unknown): boolean {
  if (typeof answer !== 'boolean') throw new TypeError('it must answer true or false');
  return answer;
}
