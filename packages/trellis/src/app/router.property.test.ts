// The router against find-my-way (the router Fastify uses, whose syntax and matching rules it follows): the same
// routes, added in the same order, are accepted or refused alike, and every request path finds the same route
// with the same parameters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import FindMyWay from 'find-my-way';
import { isSafePattern } from './route-pattern.js';
import { Router } from './router.js';

type Method = 'GET' | 'POST';

/** Text that is both route text and request text. */
const WORDS = ['a', 'b', 'ab', 'orders', 'a-b', 'a.b', 'v1', 'caf%C3%A9', 'café', 'x%2Fy', 'a:b'];

const segment = fc.constantFrom(
  ...WORDS,
  '::x',
  '100%',
  ':id',
  ':name',
  ':id(^\\d+$)',
  ':id(\\d+)',
  ':slug([a-z]+)',
  ':from-:to',
  ':file.json',
  ':name.:ext',
  ':a-:b.:c',
  'pre-:x',
  ':x-post',
);
const routePath = fc
  .tuple(
    fc.array(segment, { minLength: 0, maxLength: 4 }),
    fc.constantFrom('', '', '/', '/*', '*', '/:opt?', '/:opt?/'),
    fc.constantFrom('/', '/', '/', '*'),
  )
  .map(([segments, tail, start]) => (start === '*' ? '*' : '/' + segments.join('/') + tail));
const route = fc.record({ method: fc.constantFrom<Method>('GET', 'POST'), path: routePath });

const piece = fc.constantFrom(
  ...WORDS,
  '42',
  '7-9',
  'x.json',
  'f.tar.gz',
  ':x',
  '%2F',
  '100%25',
  '%2525',
  '%41',
  'pre-q',
  'q-post',
  '',
  'x'.repeat(501),
  '1'.repeat(600),
);
const requestPath = fc
  .tuple(fc.array(piece, { minLength: 0, maxLength: 5 }), fc.constantFrom('', '/', '?q=1', '#f', '/?a=%2F'))
  .map(([pieces, tail]) => '/' + pieces.join('/') + tail);

/** Adds the routes to both routers; returns which were accepted (each router's own answer). */
function addAll(routes: { method: Method; path: string }[]) {
  const ours = new Router<number>();
  const make = () => FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, caseSensitive: true, maxParamLength: 500 });
  let theirs = make();
  // find-my-way may keep half of a route it refuses (`/:id?` is two routes); ours changes nothing then. So after a
  // refusal find-my-way is made again from the routes both accepted.
  const kept: { method: Method; path: string; entry: number }[] = [];
  const seen = new Set<string>();
  const accepted: { ours: boolean; theirs: boolean; route: string }[] = [];
  routes.forEach((r, i) => {
    const id = `${r.method} ${r.path}`;
    // The same method and path twice is refused before either router sees it.
    if (seen.has(id)) return;
    seen.add(id);
    let oursOk = true;
    let theirsOk = true;
    try {
      ours.add(r.method, r.path, i);
    } catch {
      oursOk = false;
    }
    try {
      theirs.on(r.method, r.path, () => undefined, { entry: i });
      kept.push({ ...r, entry: i });
    } catch {
      theirsOk = false;
      theirs = make();
      for (const k of kept) theirs.on(k.method, k.path, () => undefined, { entry: k.entry });
    }
    accepted.push({ ours: oursOk, theirs: theirsOk, route: id });
  });
  return { ours, theirs, accepted };
}

function theirFind(theirs: ReturnType<typeof FindMyWay>, method: Method, path: string) {
  const found = theirs.find(method, path);
  return found === null ? null : { entry: (found.store as { entry: number }).entry, params: { ...found.params } };
}

function ourFind(ours: Router<number>, method: Method, path: string) {
  const found = ours.find(method, path);
  return found === null ? null : { entry: found.entry, params: { ...found.params } };
}

describe('Router, differentially against find-my-way', () => {
  it('accepts and refuses the same routes, and finds the same route and parameters for every path', () => {
    fc.assert(
      fc.property(
        fc.array(route, { minLength: 1, maxLength: 8 }),
        fc.array(requestPath, { minLength: 1, maxLength: 12 }),
        (routes, paths) => {
          const { ours, theirs, accepted } = addAll(routes);
          for (const a of accepted) assert.equal(a.ours, a.theirs, `${a.route}: ours ${a.ours ? 'accepts' : 'refuses'} it`);
          for (const path of paths) {
            for (const method of ['GET', 'POST'] as const) {
              assert.deepEqual(ourFind(ours, method, path), theirFind(theirs, method, path), `${method} ${path}`);
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds the same for paths made from the routes themselves, parameters filled in', () => {
    const fill = fc.constantFrom('7', 'x', 'a-b', 'a.b', 'n.json', '%2F', 'caf%C3%A9', '', 'p-q-r');
    fc.assert(
      fc.property(fc.array(route, { minLength: 1, maxLength: 6 }), fc.array(fill, { minLength: 8, maxLength: 8 }), (routes, fills) => {
        const { ours, theirs } = addAll(routes);
        for (const r of routes) {
          let k = 0;
          const path = r.path
            .replace(/\?/g, '')
            .replace(/:[A-Za-z]+(\([^)]*\))?/g, () => fills[k++ % fills.length]!)
            .replace(/\*/g, () => fills[k++ % fills.length]!);
          const target = path.startsWith('/') ? path : `/${path}`;
          assert.deepEqual(ourFind(ours, r.method, target), theirFind(theirs, r.method, target), `${r.method} ${target}`);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses the parameter patterns find-my-way refuses as unsafe, and keeps the safe ones', () => {
    for (const unsafe of ['((a+)+)', '((a*)*)', '((ab|a)*)+', '((?:a+)+)', '(' + 'a?'.repeat(26) + ')'])
      assert.equal(isSafePattern(unsafe), false, unsafe);
    for (const safe of [
      '(^\\d+$)',
      '([a-z]+)',
      '(.*?)',
      '([+*]+)',
      '(\\d{2,4})',
      '(a|b)',
      '(\\(x+\\))',
      '(?<y>\\d+)',
      '(' + 'a?'.repeat(25) + ')',
    ])
      assert.equal(isSafePattern(safe), true, safe);
    const theirs = FindMyWay();
    for (const pattern of ['((a+)+)', '((a*)*)', '(' + 'a?'.repeat(26) + ')']) {
      assert.throws(() => theirs.on('GET', `/:p${pattern}`, () => undefined));
      assert.throws(() => new Router<number>().add('GET', `/:p${pattern}`, 1), /Cannot route GET .*not safe/);
    }
  });
});
