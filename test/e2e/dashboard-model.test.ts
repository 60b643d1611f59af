// A model-based property test of "when functions run": random dashboards and random sequences of reads,
// refreshes, state changes and content-replacing actions, checked against a small model of the console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createInterpreter, type StateInput } from '../../packages/harness/src/dashboard/index.js';
import { arn, fakeClock, inProcessFunctions } from '../fixtures/dashboards/in-process-functions.js';

const WIDGET_HTML = '<p>own</p><a>Swap</a><cwdb-action action="html"><p>swapped</p></cwdb-action>';
type UpdateOn = { refresh?: boolean; resize?: boolean; timeRange?: boolean } | undefined;

const updateOnArb: fc.Arbitrary<UpdateOn> = fc.oneof(
  fc.constant(undefined),
  fc.record({ refresh: fc.boolean(), resize: fc.boolean(), timeRange: fc.boolean() }, { requiredKeys: [] }),
);
const stateArb: fc.Arbitrary<StateInput> = fc.record(
  {
    theme: fc.constantFrom<'light' | 'dark'>('light', 'dark'),
    timeRange: fc.constantFrom({ relative: '-PT3H' }, { relative: '-P7D' }),
    period: fc.constantFrom('auto', 60, 300) as fc.Arbitrary<'auto' | number>,
    dashboardWidth: fc.constantFrom(2392, 1280, 1281, 1600),
    widgetSizes: fc.constantFrom<NonNullable<StateInput['widgetSizes']>>({}, { 0: { width: 300 } }, { 'widget-0': { width: 320 } }),
  },
  { requiredKeys: [] },
);
type Op =
  | { op: 'read'; i: number }
  | { op: 'refresh'; mode: 'auto' | 'manual' }
  | { op: 'state'; state: StateInput }
  | { op: 'swap'; i: number }
  | { op: 'tick' };
const opArb = (n: number): fc.Arbitrary<Op> =>
  fc.oneof(
    fc.record({ op: fc.constant('read' as const), i: fc.nat(n - 1) }),
    fc.record({ op: fc.constant('refresh' as const), mode: fc.constantFrom<'auto' | 'manual'>('auto', 'manual') }),
    fc.record({ op: fc.constant('state' as const), state: stateArb }),
    fc.record({ op: fc.constant('swap' as const), i: fc.nat(n - 1) }),
    fc.constant({ op: 'tick' as const }),
  );

const norm = (s: StateInput) => ({
  theme: s.theme ?? 'light',
  timeRange: JSON.stringify(s.timeRange ?? { relative: '-PT3H' }),
  period: s.period ?? 'auto',
  dashboardWidth: s.dashboardWidth ?? 2392,
  widget0Width: Object.values(s.widgetSizes ?? {})[0]?.width ?? null,
});
/** The width a 6-column widget is told: its own width, or its cell's (1280 and 1281 give the same cell). */
const toldWidth = (state: ReturnType<typeof norm>, i: number) =>
  (i === 0 ? state.widget0Width : null) ?? Math.round((6 * state.dashboardWidth) / 24) - 10;

test('property: functions run exactly when the console would run them', async () => {
  const scenario = fc
    .array(updateOnArb, { minLength: 1, maxLength: 5 })
    .chain((widgets) => fc.tuple(fc.constant(widgets), fc.array(opArb(widgets.length), { maxLength: 25 })));
  await fc.assert(
    fc.asyncProperty(scenario, async ([updateOns, ops]) => {
      const clock = fakeClock();
      const harness = createInterpreter({ functions: inProcessFunctions({ w: () => WIDGET_HTML }), clock: clock.now });
      const dash = await harness.load({
        widgets: updateOns.map((u) => ({ type: 'custom', properties: { endpoint: arn('w'), ...(u ? { updateOn: u } : {}) } })),
      });
      const on = updateOns.map((u) =>
        u ? { refresh: !!u.refresh, resize: !!u.resize, timeRange: !!u.timeRange } : { refresh: true, resize: true, timeRange: true },
      );
      const model = updateOns.map(() => ({ read: false, invocations: 0, event: 'load', swapped: false }));
      let state = norm({});
      const runOwn = (i: number, event: string) =>
        Object.assign(model[i]!, { invocations: model[i]!.invocations + 1, event, swapped: false });
      for (const o of ops) {
        if (o.op === 'tick') clock.advance(61_000);
        if (o.op === 'read' || o.op === 'swap') {
          const r = await dash.readWidget(o.i);
          if (!model[o.i]!.read) {
            model[o.i]!.read = true;
            runOwn(o.i, 'load');
          }
          assert.equal(r.invocations, model[o.i]!.invocations);
          assert.equal(r.html, model[o.i]!.swapped ? '<p>swapped</p>' : WIDGET_HTML);
          if (o.op === 'swap' && !model[o.i]!.swapped) {
            await r.action('Swap').click();
            Object.assign(model[o.i]!, { swapped: true, event: 'click' });
          }
        }
        if (o.op === 'refresh') {
          const got = await dash.refresh({ mode: o.mode });
          const due = model.flatMap((m, i) => (m.read && (o.mode === 'manual' || on[i]!.refresh) ? [i] : []));
          due.forEach((i) => runOwn(i, 'refresh'));
          assert.deepEqual(
            got.refreshed,
            due.map((i) => `widget-${i}`),
          );
          assert.equal(got.refreshed.length + got.skipped.length, model.length);
        }
        if (o.op === 'state') {
          const next = norm(o.state);
          const themeChanged = next.theme !== state.theme;
          const timeChanged = next.timeRange !== state.timeRange || next.period !== state.period;
          const sizeChanged = model.map((_, i) => toldWidth(next, i) !== toldWidth(state, i));
          state = next;
          const got = await dash.putState(o.state);
          const due = model.flatMap((m, i) => {
            if (!m.read) return [];
            const kind = themeChanged
              ? 'state'
              : timeChanged && on[i]!.timeRange
                ? 'timeRange'
                : sizeChanged[i] && on[i]!.resize
                  ? 'resize'
                  : null;
            return kind ? [{ i, kind }] : [];
          });
          due.forEach(({ i, kind }) => runOwn(i, kind));
          assert.deepEqual(
            got.updated,
            due.map(({ i }) => `widget-${i}`),
          );
        }
        for (let i = 0; i < model.length; i++) {
          if (!model[i]!.read) continue;
          const r = await dash.readWidget(i);
          assert.equal(r.invocations, model[i]!.invocations, `widget-${i} invocations after ${JSON.stringify(o)}`);
          assert.equal(r.event, model[i]!.event, `widget-${i} event after ${JSON.stringify(o)}`);
        }
      }
      await harness.close();
    }),
    { numRuns: 150 },
  );
});
