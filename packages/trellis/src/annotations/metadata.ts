import './symbol-metadata.js';
import type { Annotation } from '../pipeline/index.js';

const ANNOTATIONS = Symbol('trellis.annotations');
const ROUTES = Symbol('trellis.routes');
const CONTROLLER = Symbol('trellis.controller');

interface AnnotationRecord {
  classLevel: Annotation[];
  methods: Map<string, Annotation[]>;
}

export interface RouteMark {
  readonly method: string;
  readonly path: string;
}

type Metadata = DecoratorMetadataObject;

// Subclass metadata inherits from the parent's through its prototype: write only to own records.
function own<T>(metadata: Metadata, key: symbol, make: () => T): T {
  if (!Object.hasOwn(metadata, key)) (metadata as Record<symbol, unknown>)[key] = make();
  return (metadata as Record<symbol, unknown>)[key] as T;
}

export function recordClassAnnotation(metadata: Metadata, item: Annotation): void {
  own<AnnotationRecord>(metadata, ANNOTATIONS, () => ({ classLevel: [], methods: new Map() })).classLevel.push(item);
}

export function recordMethodAnnotation(metadata: Metadata, method: string, item: Annotation): void {
  const record = own<AnnotationRecord>(metadata, ANNOTATIONS, () => ({ classLevel: [], methods: new Map() }));
  const list = record.methods.get(method) ?? [];
  list.push(item);
  record.methods.set(method, list);
}

export function recordRoute(metadata: Metadata, method: string, mark: RouteMark): void {
  const routes = own<Map<string, RouteMark[]>>(metadata, ROUTES, () => new Map());
  const list = routes.get(method) ?? [];
  list.push(mark);
  routes.set(method, list);
}

export function recordController(metadata: Metadata, prefix: string): void {
  (metadata as Record<symbol, unknown>)[CONTROLLER] = prefix;
}

/** The metadata chain of a class, from the base class to the class itself. */
function chain(metadata: Metadata | undefined): Metadata[] {
  const out: Metadata[] = [];
  for (let m = metadata; m; m = Object.getPrototypeOf(m) as Metadata | undefined) out.unshift(m);
  return out;
}

export interface ClassDeclarations {
  prefix: string;
  classLevel: Annotation[];
  /** Method name → its routes and annotations (a subclass's declarations of a method replace the base's). */
  methods: Map<string, { routes: RouteMark[]; annotations: Annotation[] }>;
}

export function readClassDeclarations(metadata: Metadata | undefined): ClassDeclarations {
  const result: ClassDeclarations = { prefix: '', classLevel: [], methods: new Map() };
  for (const m of chain(metadata)) {
    const record = Object.hasOwn(m, ANNOTATIONS) ? ((m as Record<symbol, unknown>)[ANNOTATIONS] as AnnotationRecord) : undefined;
    const routes = Object.hasOwn(m, ROUTES) ? ((m as Record<symbol, unknown>)[ROUTES] as Map<string, RouteMark[]>) : undefined;
    if (Object.hasOwn(m, CONTROLLER)) result.prefix = (m as Record<symbol, unknown>)[CONTROLLER] as string;
    if (record) result.classLevel.push(...record.classLevel);
    const names = new Set([...(record?.methods.keys() ?? []), ...(routes?.keys() ?? [])]);
    for (const name of names) {
      result.methods.set(name, { routes: [...(routes?.get(name) ?? [])], annotations: [...(record?.methods.get(name) ?? [])] });
    }
  }
  return result;
}
