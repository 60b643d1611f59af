import { createToken } from '../services/index.js';

/**
 * Where the framework reports problems it recovers from. Register your own with
 * `app.services.replace(Logger, () => myLogger)`. A method that throws, or returns a promise that rejects, does
 * not stop the request or the process: the line goes to stderr instead, with one more line naming the method
 * (`Logger.error threw …`).
 */
export interface Logger {
  /** Routine events worth a line when debugging (e.g. a client that left mid-upload). */
  debug?(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}
export const Logger = createToken<Logger>('Logger');

/** Writes one line per entry to stderr; debug lines only when `TRELLIS_DEBUG` is set. */
export const consoleLogger: Logger = {
  debug: (message) => {
    if (process.env.TRELLIS_DEBUG) console.error(`[trellis] debug: ${message}`);
  },
  warn: (message, details) => console.warn(`[trellis] ${message}`, details ?? ''),
  error: (message, details) => console.error(`[trellis] ${message}`, details ?? ''),
};
