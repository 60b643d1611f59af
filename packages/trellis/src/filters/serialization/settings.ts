import { createToken } from '../../services/index.js';
import type { ErrorMapping } from './error-handlers.js';

/** Settings of the serialization stage, from `createApp` options. */
export interface SerializationSettings {
  /** Largest accepted request body in bytes (413 beyond). */
  readonly bodyLimit: number;
  /** Development mode: 500 problems include the error's stack. */
  readonly development: boolean;
  /** Called with errors thrown by handlers that no error handler answered (the response is a 500 problem). */
  readonly onError: (error: unknown, route: string) => void;
  /** Called when a client leaves before sending the whole body (one line, at debug level). */
  readonly onClientAbort?: (route: string) => void;
  /** The app's error handlers (`app.onError`), tried in order for errors thrown by handlers. */
  readonly errorHandlers?: readonly ErrorMapping[];
}
export const SerializationSettings = createToken<SerializationSettings>('SerializationSettings');
