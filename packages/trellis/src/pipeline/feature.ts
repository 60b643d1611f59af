import type { ServiceCollection } from '../services/index.js';
import type { AnnotationKind } from './annotation.js';
import type { Filter } from './filter.js';

/**
 * A capability an annotation brings: filters and default services, installed once per app when any route
 * carries an annotation whose kind names the feature. Capabilities such as rate limiting plug into the
 * pipeline this way, from above, without the core knowing them.
 */
export interface Feature {
  readonly name: string;
  filters?(): readonly Filter[];
  /** Registers framework defaults (they are applied with RegistrationType.Try). */
  configure?(services: ServiceCollection): void;
}

/** An annotation kind that brings a feature with it. */
export interface FeatureKind<T> extends AnnotationKind<T> {
  readonly feature: Feature;
}

/** The feature an annotation kind brings, if any. */
export function featureOf(kind: AnnotationKind<unknown>): Feature | undefined {
  const feature = (kind as Partial<FeatureKind<unknown>>).feature;
  return feature !== null && typeof feature === 'object' ? feature : undefined;
}
