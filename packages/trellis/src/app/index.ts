export { App, createApp } from './app.js';
export type { AppOptions, BoundAddress, ListenOptions } from './app.js';
export type { InjectRequest, InjectResponse, RecordedResponse } from './inject.js';
export type { IncomingRequest } from './dispatch.js';
export { normalizeAddress } from './client-address.js';
export type { TrustProxy } from './client-address.js';
export { routePieces } from './route-pattern.js';
export type { RoutePiece } from './route-pattern.js';
export { Logger, consoleLogger } from '../pipeline/index.js';
