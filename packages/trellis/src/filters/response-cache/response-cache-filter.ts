import { CacheKind } from '../../annotations/index.js';
import type { CacheSettings } from '../../annotations/index.js';
import type { ExecutionContext, Filter, Next, UserHook } from '../../pipeline/index.js';
import { FilterOrder, ResponseHeaders, addVary, callUserCode, callUserCodeSync, isThenable } from '../../pipeline/index.js';
import { ResponseCacheStore, type CachedResponse } from './cache-store.js';

/** A stored entry as `get` answers it, checked: undefined (null too) for none. */
function cachedOrNone(answer: unknown): CachedResponse | undefined {
  if (answer === undefined || answer === null) return undefined;
  const e = answer as Partial<CachedResponse>;
  if (
    typeof answer !== 'object' ||
    !Number.isInteger(e.status) ||
    e.headers === null ||
    typeof e.headers !== 'object' ||
    !Buffer.isBuffer(e.body) ||
    !Number.isFinite(e.storedAt) ||
    !Number.isFinite(e.expiresAt)
  ) {
    throw new TypeError('it must answer undefined or { status, headers, body (a Buffer), storedAt, expiresAt }');
  }
  return answer as CachedResponse;
}

const GET: UserHook<CachedResponse | undefined> = {
  where: 'ResponseCacheStore.get',
  instead: 'the request was answered as a cache miss',
  accept: cachedOrNone,
  fallback: () => undefined,
};

const SET: UserHook<unknown, undefined> = {
  where: 'ResponseCacheStore.set',
  instead: 'the response went out without being stored',
  fallback: () => undefined,
};

const NOW: UserHook<number> = {
  where: 'ResponseCacheStore.now',
  instead: 'Date.now() was used',
  accept: (answer) => {
    if (typeof answer !== 'number' || !Number.isFinite(answer)) throw new TypeError('it must answer a number of milliseconds');
    return answer;
  },
  fallback: () => Date.now(),
};

/**
 * Whose response this is: `shared` (anyone's), a principal's, or `bypass` when the request carries
 * credentials (`Authorization`, `Cookie`) that no authenticator turned into a principal — the handler may
 * still answer per caller, so nothing is served or stored.
 */
type Audience = { kind: 'shared' } | { kind: 'principal'; key: string } | { kind: 'bypass' };

function audience(ctx: ExecutionContext, settings: CacheSettings): Audience {
  if (settings.shared) return { kind: 'shared' };
  const p = ctx.principal;
  if (p !== null) return { kind: 'principal', key: JSON.stringify([p.scheme ?? null, p.subject]) };
  const headers = ctx.request.headers;
  if (headers.get('authorization') !== undefined || headers.get('cookie') !== undefined) return { kind: 'bypass' };
  return settings.varyBy?.includes('principal') ? { kind: 'principal', key: '-' } : { kind: 'shared' };
}

function cacheKey(ctx: ExecutionContext, settings: CacheSettings, who: Audience): string {
  const parts = [ctx.route.id, ctx.request.url, who.kind === 'principal' ? `p:${who.key}` : 's'];
  for (const vary of settings.varyBy ?? []) {
    if (vary !== 'principal') parts.push(`h:${ctx.request.headers.get(vary.slice('header:'.length)) ?? ''}`);
  }
  return parts.join('\n');
}

function cacheControl(who: Audience, maxAge: number): string {
  return `${who.kind === 'principal' ? 'private' : 'public'}, max-age=${Math.max(0, Math.floor(maxAge))}`;
}

/**
 * Serves and stores responses of handlers with `@Cache`, per principal unless the route says `shared`. It observes decided requests only to check for a
 * recorded failure explicitly: a decided request is neither served from nor stored in the cache.
 */
export const responseCacheFilter: Filter = {
  name: 'response-cache',
  order: FilterOrder.ResponseCache,
  observesDecided: true,
  forRoute(route) {
    const settings = route.annotations.find((a) => a.kind === CacheKind)?.value as CacheSettings | undefined;
    return settings === undefined ? undefined : (ctx, next) => serveOrStore(ctx, next, settings);
  },
};

/** Serves the route's response from the store, or stores the handler's response. */
async function serveOrStore(ctx: ExecutionContext, next: Next, settings: CacheSettings): Promise<void> {
  const method = ctx.request.method;
  if (ctx.refusal !== null || ctx.decided || (method !== 'GET' && method !== 'HEAD')) return next();
  const store = ctx.services.tryGet(ResponseCacheStore);
  if (!store) return next();
  const who = audience(ctx, settings);
  if (who.kind === 'bypass') {
    await next();
    // A per-caller answer must not be kept by shared caches on the way either.
    const response = ctx.response;
    if (response !== null && !response.headers.has('cache-control')) response.headers.set('cache-control', 'private, no-store');
    return;
  }
  const key = cacheKey(ctx, settings, who);
  const now = store.now ? callUserCodeSync(ctx.services, NOW, () => store.now!(), ctx.route.id) : Date.now();
  const found = callUserCode(ctx.services, GET, () => store.get(key), ctx.route.id);
  const hit = isThenable(found) ? await found : found;
  if (hit) {
    const headers = new ResponseHeaders(hit.headers);
    headers.set('age', Math.max(0, Math.floor((now - hit.storedAt) / 1000)));
    headers.set('cache-control', cacheControl(who, Math.ceil((hit.expiresAt - now) / 1000)));
    ctx.respond({ status: hit.status, headers, body: hit.body });
    return next();
  }
  await next();
  // Store only what the handler produced for an undecided request: check explicitly, never assume.
  const response = ctx.response;
  if (ctx.refusal !== null || response === null || response.status < 200 || response.status > 299) return;
  // A streamed body is written as it comes and never held: it is not cached.
  if (response.body !== null && typeof response.body === 'object' && !Buffer.isBuffer(response.body)) return;
  // A response that sets a cookie is its caller's own (the cookie may come from `ctx.cookies`, in the context's headers).
  const setsCookie = response.headers.has('set-cookie') || (ctx.hasResponseHeaders && ctx.responseHeaders.has('set-cookie'));
  if (setsCookie || String(response.headers.get('cache-control') ?? '').includes('no-store')) return;
  const vary = (settings.varyBy ?? []).filter((v) => v.startsWith('header:')).map((v) => v.slice(7));
  // Merged with the handler's own Vary, never in its place (CORS adds Origin after this, stored or served).
  addVary(response.headers, ...vary);
  response.headers.set('cache-control', cacheControl(who, settings.seconds));
  response.headers.set('age', 0);
  const body = response.body === null ? Buffer.alloc(0) : Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
  const entry: CachedResponse = {
    status: response.status,
    headers: response.headers.toObject(),
    body,
    storedAt: now,
    expiresAt: now + settings.seconds * 1000,
  };
  void callUserCode(ctx.services, SET, () => store.set(key, entry), ctx.route.id);
}
