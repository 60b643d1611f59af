import { CacheKind } from '../../annotations/index.js';
import type { CacheSettings } from '../../annotations/index.js';
import type { ExecutionContext, Filter } from '../../pipeline/index.js';
import { FilterOrder, ResponseHeaders } from '../../pipeline/index.js';
import { ResponseCacheStore } from './cache-store.js';

function cacheKey(ctx: ExecutionContext, settings: CacheSettings): string {
  const parts = [ctx.route.id, ctx.request.url];
  for (const vary of settings.varyBy ?? []) {
    if (vary === 'principal') parts.push(`p:${ctx.principal ? JSON.stringify(ctx.principal.subject) : '-'}`);
    else parts.push(`h:${ctx.request.headers.get(vary.slice('header:'.length)) ?? ''}`);
  }
  return parts.join('\n');
}

function cacheControl(settings: CacheSettings, maxAge: number): string {
  const scope = settings.varyBy?.includes('principal') ? 'private' : 'public';
  return `${scope}, max-age=${Math.max(0, Math.floor(maxAge))}`;
}

/**
 * Serves and stores responses of handlers with `@Cache`. It observes decided requests only to check for a
 * recorded failure explicitly: a decided request is neither served from nor stored in the cache.
 */
export const responseCacheFilter: Filter = {
  name: 'response-cache',
  order: FilterOrder.ResponseCache,
  observesDecided: true,
  appliesTo: (route) => route.annotations.some((a) => a.kind === CacheKind),
  async run(ctx, next) {
    const method = ctx.request.method;
    if (ctx.refusal !== null || ctx.decided || (method !== 'GET' && method !== 'HEAD')) return next();
    const settings = ctx.annotations(CacheKind)[0]!;
    const store = ctx.services.tryGet(ResponseCacheStore);
    if (!store) return next();
    const key = cacheKey(ctx, settings);
    const now = store.now ? store.now() : Date.now();
    const hit = store.get(key);
    if (hit) {
      const headers = new ResponseHeaders(hit.headers);
      headers.set('age', Math.max(0, Math.floor((now - hit.storedAt) / 1000)));
      headers.set('cache-control', cacheControl(settings, Math.ceil((hit.expiresAt - now) / 1000)));
      ctx.respond({ status: hit.status, headers, body: hit.body });
      return next();
    }
    await next();
    // Store only what the handler produced for an undecided request: check explicitly, never assume.
    const response = ctx.response;
    if (ctx.refusal !== null || response === null || response.status < 200 || response.status > 299) return;
    if (response.headers.has('set-cookie') || String(response.headers.get('cache-control') ?? '').includes('no-store')) return;
    const vary = (settings.varyBy ?? []).filter((v) => v.startsWith('header:')).map((v) => v.slice(7));
    if (vary.length) response.headers.set('vary', vary.join(', '));
    response.headers.set('cache-control', cacheControl(settings, settings.seconds));
    response.headers.set('age', 0);
    const body = response.body === null ? Buffer.alloc(0) : Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
    store.set(key, { status: response.status, headers: response.headers.toObject(), body, storedAt: now, expiresAt: now + settings.seconds * 1000 });
  },
};
