import type { Annotation } from '../annotations/index.js';
import type { ExecutionContext } from './context.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** What the pipeline knows of the handler a request was routed to. */
export interface RouteInfo {
  /** `METHOD /path`, unique within an app. */
  readonly id: string;
  /** Where the handler was declared: `Class.method` or the function's name. */
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The handler's annotations after class- and method-level ones are combined, in a canonical order. */
  readonly annotations: readonly Annotation[];
  /** Calls the handler. */
  readonly invoke: (ctx: ExecutionContext) => unknown;
}
