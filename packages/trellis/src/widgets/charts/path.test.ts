import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PathWriter, coord, tenths } from './path.js';

test('tenths are written as short decimals', () => {
  assert.deepEqual([4, -4, 12, -12, 30, 0, -30, 105].map(tenths), ['.4', '-.4', '1.2', '-1.2', '3', '0', '-3', '10.5']);
  assert.equal(coord(12.345), '12.3');
  assert.equal(coord(-0.04), '0');
});

test('lines are written as relative steps from rounded positions, and skip steps of no length', () => {
  const d = new PathWriter().move(10.04, 20).line(10.44, 18.8).line(10.44, 18.8).line(10.84, 18.8).line(10.84, 20).end().toString();
  assert.equal(d, 'M10 20l.4-1.2h.4v1.2');
});

test('a subpath that draws nothing becomes a dot', () => {
  assert.equal(new PathWriter().move(1, 2).end().move(3, 4).line(5, 6).end().toString(), 'M1 2h0M3 4l2 2');
});

/** Sums relative path data back to absolute positions. */
function absolute(d: string): [number, number][] {
  const out: [number, number][] = [];
  let x = 0;
  let y = 0;
  for (const [, cmd, args] of d.matchAll(/([MlhvV])([^MlhvV]*)/g)) {
    const n = args!.match(/-?(?:\d+\.?\d*|\.\d+)/g)!.map(Number);
    if (cmd === 'M') [x, y] = n as [number, number];
    else if (cmd === 'l') [x, y] = [x + n[0]!, y + n[1]!];
    else if (cmd === 'h') x += n[0]!;
    else if (cmd === 'v') y += n[0]!;
    // `|| 0`: a sum that lands on zero from below is -0, which deepEqual tells from 0.
    out.push([Math.round(x * 10) / 10 || 0, Math.round(y * 10) / 10 || 0]);
  }
  return out;
}

test('relative steps sum back to exactly the rounded positions', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.double({ min: 0, max: 2000, noNaN: true }), fc.double({ min: 0, max: 2000, noNaN: true })), {
        minLength: 1,
        maxLength: 200,
      }),
      (points) => {
        const p = new PathWriter();
        points.forEach(([x, y], i) => (i === 0 ? p.move(x, y) : p.line(x, y)));
        const decoded = absolute(p.toString());
        const last = decoded[decoded.length - 1]!;
        const [lx, ly] = points[points.length - 1]!;
        assert.deepEqual(last, [Math.round(lx * 10) / 10, Math.round(ly * 10) / 10]);
        const rounded = new Set(points.map(([x, y]) => `${Math.round(x * 10) / 10},${Math.round(y * 10) / 10}`));
        for (const [x, y] of decoded) assert.ok(rounded.has(`${x},${y}`), `${x},${y} is one of the points`);
      },
    ),
  );
});
