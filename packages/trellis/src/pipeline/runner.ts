import type { ExecutionContext } from './context.js';
import type { Filter } from './filter.js';
import { FilterOrder } from './filter-order.js';

/** Thrown when a filter breaks the pipeline's rules (e.g. calls `next()` twice). */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
}

/** Sorts filters by order (stable, so equal orders keep their registration order). */
export function sortFilters(filters: readonly Filter[]): Filter[] {
  for (const f of filters) {
    if (!Number.isFinite(f.order)) throw new PipelineError(`Filter "${f.name}" has no numeric order.`);
  }
  return filters
    .map((filter, index) => ({ filter, index }))
    .sort((a, b) => a.filter.order - b.filter.order || a.index - b.index)
    .map((x) => x.filter);
}

/**
 * Composes sorted filters into one function. This is the one place that decides whether a filter does its
 * work: on a decided request, filters that do not observe decided requests are skipped.
 */
export function composeFilters(sorted: readonly Filter[]): (ctx: ExecutionContext) => Promise<void> {
  const count = sorted.length;
  return function runPipeline(ctx: ExecutionContext): Promise<void> {
    const dispatch = (i: number): Promise<void> => {
      if (i >= count) return Promise.resolve();
      const filter = sorted[i]!;
      if (ctx.decided && !filter.observesDecided) return dispatch(i + 1);
      let called = false;
      const next = (): Promise<void> => {
        if (called) return Promise.reject(new PipelineError(`Filter "${filter.name}" called next() more than once.`));
        called = true;
        return dispatch(i + 1);
      };
      ctx.currentFilter = filter.name;
      try {
        return Promise.resolve(filter.run(ctx, next));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return dispatch(0);
  };
}

/** Application filters must run before the terminal serialization stage. */
export function assertApplicationFilter(filter: Filter): void {
  if (typeof filter?.run !== 'function' || typeof filter.name !== 'string' || filter.name === '') {
    throw new TypeError('A filter needs a non-empty name, a numeric order and a run(ctx, next) function.');
  }
  if (!Number.isFinite(filter.order) || filter.order >= FilterOrder.Serialization) {
    throw new RangeError(
      `Filter "${filter.name}" has order ${String(filter.order)}; application filters need an order below ` +
        `FilterOrder.Serialization (${FilterOrder.Serialization}), which is terminal.`,
    );
  }
}
