import { annotation, problem, type FeatureKind, type ExecutionContext, type Filter, type Next, type RouteInfo } from 'trellis';

/** Runs after authentication and rate limits, just before the serialization stage reads the body. */
const ACCEPTS_ORDER = 900;

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

function matches(type: string, accepted: readonly string[]): boolean {
  return accepted.some((a) => a === type || (a === 'application/json' && type.startsWith('application/') && type.endsWith('+json')));
}

const acceptsFilter: Filter = {
  name: 'harness-accepts',
  order: ACCEPTS_ORDER,
  forRoute(route: RouteInfo) {
    const accepted = route.annotations.filter((a) => a.kind === AcceptsKind).flatMap((a) => a.value as readonly string[]);
    return accepted.length === 0 ? undefined : (ctx, next) => refuseOthers(ctx, next, accepted);
  },
};

/** Refuses a body of a media type the route does not accept (415). */
function refuseOthers(ctx: ExecutionContext, next: Next, accepted: readonly string[]): Promise<void> {
  if (ctx.bodySource.present) {
    const type = mediaType(ctx.request.headers.get('content-type'));
    if (!matches(type, accepted)) {
      ctx.refuse(
        problem(415, `This endpoint takes ${accepted.join(' or ')}; got ${type ? JSON.stringify(type) : 'no Content-Type'}.`, {
          supported: [...accepted],
        }),
      );
    }
  }
  return next();
}

/** The media types a route accepts for its body; others are refused with 415 before the body is read. */
export const AcceptsKind: FeatureKind<readonly string[]> = {
  name: 'Accepts',
  combine: (classLevel, methodLevel) => (methodLevel.length > 0 ? methodLevel : classLevel),
  sortKey: (value) => value.join(','),
  feature: { name: 'harness-accepts', filters: () => [acceptsFilter] },
};

/**
 * Declares the body media types a handler accepts (`application/json` also admits `+json` types). A request
 * with a body of any other type is refused with a 415 problem before its body is read.
 *
 * @example
 * route('POST', '/api/lint', [Accepts('text/html', 'application/json')], handler);
 */
export function Accepts(...types: string[]) {
  return annotation(AcceptsKind, Object.freeze(types.map((t) => t.toLowerCase())));
}
