import { createToken } from '../../services/index.js';

/** Settings of the serialization stage, from `createApp` options. */
export interface SerializationSettings {
  /** Largest accepted request body in bytes (413 beyond). */
  readonly bodyLimit: number;
  /** Development mode: 500 problems include the error's stack. */
  readonly development: boolean;
  /** Called with errors thrown by handlers (the response is a 500 problem). */
  readonly onError: (error: unknown, route: string) => void;
  /** Called when a client leaves before sending the whole body (one line, at debug level). */
  readonly onClientAbort?: (route: string) => void;
}
export const SerializationSettings = createToken<SerializationSettings>('SerializationSettings');
