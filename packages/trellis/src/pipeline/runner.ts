import type { ExecutionContext, RouteInfo } from './context.js';
import type { Filter, FilterRun } from './filter.js';
import { FilterOrder } from './filter-order.js';
import { usageError } from '../errors/index.js';

/** Thrown when a filter breaks the pipeline's rules (e.g. calls `next()` twice). */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
}

/** A filter as one route runs it: what it does there, and whether it also runs for decided requests. */
interface RouteStep {
  readonly name: string;
  readonly order: number;
  readonly observesDecided: boolean;
  readonly run: FilterRun;
}

/**
 * The filters that apply to `route`, each with what it does there (its `forRoute`, asked once, or its `run`),
 * sorted by order (stable, so equal orders keep their registration order).
 */
function routeSteps(filters: readonly Filter[], route: RouteInfo): RouteStep[] {
  const steps: RouteStep[] = [];
  for (const filter of filters) {
    if (!Number.isFinite(filter.order)) throw new PipelineError(`Filter "${filter.name}" has no numeric order.`);
    const run = filter.forRoute ? filter.forRoute(route) : filter.run?.bind(filter);
    if (run !== undefined) steps.push({ name: filter.name, order: filter.order, observesDecided: filter.observesDecided === true, run });
  }
  return steps.sort((a, b) => a.order - b.order);
}

/** A promise, or anything else that `await` would wait on: a filter or handler may answer either way. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** What `next()` gives when the rest of the pipeline finished at once: a filter that returns it has too. */
const DONE: Promise<void> = Promise.resolve();

/**
 * The pipeline of one route, composed once when the app is built from the filters that apply to it. This is
 * the one place that decides whether a filter does its work: on a decided request, filters that do not observe
 * decided requests are skipped. `next()` always gives a promise; the composed function gives one only when a
 * filter did, and throws what a filter throws at once, so a request that no filter waits on is answered in the
 * same turn.
 */
export function composeFilters(filters: readonly Filter[], route: RouteInfo): (ctx: ExecutionContext) => void | Promise<void> {
  const sorted = routeSteps(filters, route);
  const count = sorted.length;
  return function runPipeline(ctx: ExecutionContext): void | Promise<void> {
    const step = (i: number): void | Promise<void> => {
      while (i < count && ctx.decided && !sorted[i]!.observesDecided) i++;
      if (i >= count) return;
      const filter = sorted[i]!;
      let called = false;
      const next = (): Promise<void> => {
        if (called) return Promise.reject(new PipelineError(`Filter "${filter.name}" called next() more than once.`));
        called = true;
        try {
          return step(i + 1) ?? DONE;
        } catch (error) {
          return Promise.reject(error);
        }
      };
      ctx.currentFilter = filter.name;
      const result = filter.run(ctx, next);
      return result === DONE || !isThenable(result) ? undefined : Promise.resolve(result);
    };
    return step(0);
  };
}

/** Application filters must run before the terminal serialization stage. */
export function assertApplicationFilter(filter: Filter): void {
  const runs = typeof filter?.run === 'function';
  const perRoute = typeof filter?.forRoute === 'function';
  if (runs === perRoute || typeof filter.name !== 'string' || filter.name === '') {
    throw usageError(
      'TRELLIS_INVALID_FILTER',
      'A filter needs a non-empty name, a numeric order, and either a run(ctx, next) function or a forRoute(route) function.',
    );
  }
  if (!Number.isFinite(filter.order) || filter.order >= FilterOrder.Serialization) {
    throw usageError(
      'TRELLIS_INVALID_FILTER',
      `Filter "${filter.name}" has order ${String(filter.order)}; application filters need an order below ` +
        `FilterOrder.Serialization (${FilterOrder.Serialization}), which is terminal.`,
      RangeError,
    );
  }
}
