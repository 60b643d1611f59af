/** One kind of annotation (`RateLimit`, `Authorize`, …) and how its values combine on one handler. */
export interface AnnotationKind<T> {
  readonly name: string;
  /**
   * Combines class-level and method-level values for one handler into the values that apply. Throws to stop
   * the app at build time when they conflict.
   */
  combine(classLevel: T[], methodLevel: T[], handler: string): T[];
  /** Sort key that makes the combined values independent of the order decorators were written in. */
  sortKey(value: T): string;
}

/**
 * An annotation value on a handler: its kind (compared by identity) and its settings. Filters read the values
 * of their kind with `ctx.annotations(kind)`.
 */
export interface Annotation<T = unknown> {
  readonly kind: AnnotationKind<T>;
  readonly value: T;
}
