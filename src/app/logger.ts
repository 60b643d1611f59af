import { createToken } from '../services/index.js';

/** Where the framework reports problems it recovers from. */
export interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}
export const Logger = createToken<Logger>('Logger');

/** Writes one line per entry to stderr. */
export const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[trellis] ${message}`, details ?? ''),
  error: (message, details) => console.error(`[trellis] ${message}`, details ?? ''),
};
