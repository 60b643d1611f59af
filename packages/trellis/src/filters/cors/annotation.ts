import { annotation } from '../../annotations/index.js';
import type { AnnotationDecorator } from '../../annotations/index.js';
import type { AnnotationKind, RouteInfo } from '../../pipeline/index.js';
import { CorsPolicy, type CorsOptions } from './policy.js';

/** `false` turns an app-wide CORS setting off for a route. */
type CorsValue = CorsPolicy | false;

export const CorsKind: AnnotationKind<CorsValue> = {
  name: 'Cors',
  // One setting per handler: a method-level one replaces a class-level (or group) one.
  combine: (classLevel, methodLevel) => {
    const level = methodLevel.length > 0 ? methodLevel : classLevel;
    return level.length > 0 ? [level[level.length - 1]!] : [];
  },
  sortKey: () => '',
};

/**
 * Lets pages of other origins call a handler: answers its CORS preflight (before authentication and rate
 * limiting, as the Fetch standard expects) and adds the `Access-Control-*` headers to its responses, refusals
 * included, so a page can read a 401 or a 429 too. On a class or a `group()` it covers every handler in it;
 * `Cors(false)` turns an app-wide setting off for one handler.
 *
 * @example
 * @Cors({ origins: ['https://app.example.com'], credentials: true })
 * @Get('/orders') list() { ... }
 * // functional form: route('GET', '/orders', [Cors({ origins: '*' })], list)
 */
export function Cors(options: CorsOptions | false): AnnotationDecorator<CorsValue> {
  return annotation(CorsKind, options === false ? false : new CorsPolicy(options, '@Cors'));
}

/** The CORS setting of a route: its own annotation's, else the app-wide one, else none. */
export function corsOf(route: RouteInfo, appWide: CorsPolicy | undefined): CorsPolicy | undefined {
  for (const a of route.annotations) {
    if (a.kind === CorsKind) return (a.value as CorsValue) || undefined;
  }
  return appWide;
}
