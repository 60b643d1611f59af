import './symbol-metadata.js';
import type { Annotation, AnnotationKind } from '../pipeline/index.js';
import { recordClassAnnotation, recordMethodAnnotation } from './metadata.js';
import { usageError } from '../errors/index.js';

export type AnnotationDecorator<T> = Annotation<T> &
  ((target: unknown, context: ClassDecoratorContext | ClassMethodDecoratorContext) => void);

/** Creates an annotation value that is also a standard decorator. */
export function annotation<T>(kind: AnnotationKind<T>, value: T): AnnotationDecorator<T> {
  const decorator = (_target: unknown, context: ClassDecoratorContext | ClassMethodDecoratorContext): void => {
    const item: Annotation<T> = { kind, value };
    if (context.kind === 'class') recordClassAnnotation(context.metadata, item);
    else if (context.kind === 'method') {
      if (context.private || typeof context.name === 'symbol') {
        throw usageError('TRELLIS_INVALID_ANNOTATION', `@${kind.name} can only decorate public methods with string names.`);
      }
      recordMethodAnnotation(context.metadata, context.name, item);
    } else
      throw usageError(
        'TRELLIS_INVALID_ANNOTATION',
        `@${kind.name} decorates classes and methods, not ${(context as { kind: string }).kind}s.`,
      );
  };
  return Object.assign(decorator, { kind, value }) as AnnotationDecorator<T>;
}

export function isAnnotation(value: unknown): value is Annotation {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    'kind' in value &&
    typeof (value as Annotation).kind?.combine === 'function'
  );
}

/** A stable JSON text of plain settings, for sort keys and equality. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Combines annotations of all kinds for one handler, in a canonical order. */
export function combineAnnotations(classLevel: readonly Annotation[], methodLevel: readonly Annotation[], handler: string): Annotation[] {
  const kinds = new Set<AnnotationKind<unknown>>([...classLevel, ...methodLevel].map((a) => a.kind));
  const out: Annotation[] = [];
  for (const kind of [...kinds].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const pick = (list: readonly Annotation[]) => list.filter((a) => a.kind === kind).map((a) => a.value);
    const values = kind.combine(pick(classLevel), pick(methodLevel), handler);
    const keyed = values.map((value) => ({ value, key: kind.sortKey(value) }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { value } of keyed) out.push({ kind, value });
  }
  return out;
}
