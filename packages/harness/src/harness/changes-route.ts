import { Describe, HttpError, Validate, group, route, type ExecutionContext, type RouteDefinition } from 'trellis';
import { guardResponses } from './api-routes.js';
import type { ChangeFeed } from './change-feed.js';
import { changesQuery } from './schemas.js';

/** Longest wait a client may ask for, in seconds. */
export const MAX_CHANGES_WAIT_SECONDS = 60;
const DEFAULT_WAIT_SECONDS = 25;

function whole(ctx: ExecutionContext, name: string, max: number): number | undefined {
  const values = ctx.request.query.getAll(name);
  if (values.length === 0) return undefined;
  const text = values[0]!;
  const n = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (values.length > 1 || !(n <= max)) {
    throw new HttpError(
      400,
      `The query parameter "${name}" should be given once, a whole number from 0 to ${max}; got ${values.length > 1 ? `${values.length} values` : JSON.stringify(text)}.`,
      { field: name },
    );
  }
  return n;
}

/**
 * `GET /api/changes`: without `after`, the latest change number at once; with `after=<seq>`, the changes
 * after it, waiting up to `wait` seconds (default 25) for the next one when there is none yet.
 *
 * @example
 * app.route(changesRoutes(feed));
 */
export function changesRoutes(feed: ChangeFeed): RouteDefinition[] {
  const describe = Describe({
    operationId: 'changes',
    summary: 'Wait for the next change (watch mode)',
    description:
      "In watch mode (`trellis harness --watch`) a change to a function's files restarts its environments and makes the widgets showing its output run it again on their next read. Without `after`, answers at once with the latest change number; with `after`, answers with the changes after it, waiting up to `wait` seconds for one. `watching` is false when the harness does not watch.",
    responses: {
      200: { description: 'The changes after `after`', schema: { $ref: '#/components/schemas/Changes' } },
      400: '`after` or `wait` is not a whole number in range, or is given twice (`field`)',
    },
  });
  return group({ annotations: [guardResponses] }, [
    route('GET', '/api/changes', [Validate({ query: changesQuery }), describe], (ctx) => {
      const after = whole(ctx, 'after', Number.MAX_SAFE_INTEGER);
      const wait = whole(ctx, 'wait', MAX_CHANGES_WAIT_SECONDS) ?? DEFAULT_WAIT_SECONDS;
      if (after === undefined) return feed.wait(feed.seq, 0);
      return feed.wait(after, wait * 1000, ctx.signal);
    }),
  ]);
}
