/**
 * Conditional requests (RFC 9110, section 13): a request's `If-Match`, `If-Unmodified-Since`, `If-None-Match` and
 * `If-Modified-Since` weighed against what the server knows of the resource — its entity tag and when it last
 * changed — in the order the RFC gives.
 */

import { failureError, type HttpError } from './http-error.js';

// Not an import, so a bundle that packs this module unused never loads crypto (CONTRIBUTING.md, "Cold starts").
const crypto = () => process.getBuiltinModule('node:crypto');

/** What the server knows of a resource's current state: its entity tag (`"v7"` or `W/"v7"`) and when it last changed. */
export interface ResourceState {
  readonly etag?: string | undefined;
  readonly lastModified?: Date | undefined;
}

/** What the preconditions say: go on, answer 304 (the client's copy is current), or answer 412. */
export type PreconditionOutcome = 'proceed' | 'not-modified' | 'failed';

/** The four precondition headers by their lower-case names (a repeated one joined with `, `). */
type Lookup = (name: string) => string | undefined;

/**
 * Weighs the request's preconditions against `state`, for a request of `method`. `If-Match` and
 * `If-Unmodified-Since` fail as 412 for any method; a matching `If-None-Match` is a 304 for GET and HEAD and a
 * 412 otherwise; `If-Modified-Since` counts for GET and HEAD only, and only without `If-None-Match`.
 */
export function evaluatePreconditions(header: Lookup, method: string, state: ResourceState): PreconditionOutcome {
  const read = method === 'GET' || method === 'HEAD';
  const modified = state.lastModified === undefined ? undefined : Math.floor(state.lastModified.getTime() / 1000);
  const ifMatch = header('if-match');
  if (ifMatch !== undefined) {
    if (!matches(ifMatch, state.etag, true)) return 'failed';
  } else {
    const since = httpDate(header('if-unmodified-since'));
    if (since !== undefined && modified !== undefined && modified > since) return 'failed';
  }
  const ifNoneMatch = header('if-none-match');
  if (ifNoneMatch !== undefined) {
    if (matches(ifNoneMatch, state.etag, false)) return read ? 'not-modified' : 'failed';
  } else if (read) {
    const since = httpDate(header('if-modified-since'));
    if (since !== undefined && modified !== undefined && modified <= since) return 'not-modified';
  }
  return 'proceed';
}

/**
 * Whether a list of entity tags (`*`, or `"a", W/"b"`) names `etag`: strongly (both strong and equal, for
 * `If-Match`) or weakly (equal once `W/` is set aside, for `If-None-Match`). `*` names any current representation.
 */
function matches(list: string, etag: string | undefined, strong: boolean): boolean {
  if (list.trim() === '*') return etag !== undefined;
  const current = etag === undefined ? undefined : entityTag(etag.trim());
  if (current === undefined || (strong && current.weak)) return false;
  for (const tag of entityTags(list)) if (tag.opaque === current.opaque && !(strong && tag.weak)) return true;
  return false;
}

interface EntityTag {
  readonly weak: boolean;
  /** The quoted part, quotes included. */
  readonly opaque: string;
}

function entityTag(text: string): EntityTag | undefined {
  const weak = text.startsWith('W/');
  const opaque = weak ? text.slice(2) : text;
  return opaque.length >= 2 && opaque.startsWith('"') && opaque.endsWith('"') && !opaque.slice(1, -1).includes('"')
    ? { weak, opaque }
    : undefined;
}

/** The entity tags of a list; a tag may hold commas, so the list is read quote by quote. Malformed members are skipped. */
function entityTags(list: string): EntityTag[] {
  const tags: EntityTag[] = [];
  let at = 0;
  while (at < list.length) {
    const open = list.indexOf('"', at);
    if (open < 0) break;
    const close = list.indexOf('"', open + 1);
    if (close < 0) break;
    const weak = list.slice(Math.max(at, open - 2), open) === 'W/';
    tags.push({ weak, opaque: list.slice(open, close + 1) });
    at = close + 1;
  }
  return tags;
}

/** An HTTP date in whole seconds since the epoch; undefined for anything that is not one (the header is then ignored). */
function httpDate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** The 412 of a failed precondition, thrown by `ctx.checkPreconditions` and answered for a GET or HEAD alike. */
export function preconditionFailed(): HttpError {
  return failureError(
    'TRELLIS_PRECONDITION_FAILED',
    "The resource does not match the request's preconditions (If-Match, If-Unmodified-Since or If-None-Match).",
  );
}

/** A strong entity tag for a body: its SHA-1, 27 base64url characters, quoted. */
export function bodyEntityTag(body: Buffer | string): string {
  return `"${crypto().createHash('sha1').update(body).digest('base64url')}"`;
}
