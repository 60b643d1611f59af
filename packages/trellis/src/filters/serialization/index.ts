export { serializationFilter } from './serialization-filter.js';
export { SerializationSettings } from './settings.js';
export { Reply, reply } from './reply.js';
export type { ErrorClass, ErrorHandler, ErrorMapping } from './error-handlers.js';
export { formatServerSentEvent, serverSentEvents } from './server-sent-events.js';
export type { ServerSentEvent } from './server-sent-events.js';
