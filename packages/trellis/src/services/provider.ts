import { ServiceCycleError, ServiceLifetimeError, ServiceNotFoundError } from './errors.js';
import { Lifetime } from './registration.js';
import type { Registration, ServiceResolver } from './registration.js';
import { tokenName } from './token.js';
import type { Token } from './token.js';

type Entries = ReadonlyMap<Token<unknown>, readonly Registration[]>;

/** The app-wide resolver: owns singletons. Scoped services cannot be resolved from it. */
export class ServiceProvider implements ServiceResolver {
  readonly #singletons = new Map<Registration, unknown>();
  readonly #resolving: Registration[] = [];

  constructor(readonly entries: Entries) {}

  get<T>(token: Token<T>): T {
    const list = this.entries.get(token);
    if (!list || list.length === 0) throw new ServiceNotFoundError(tokenName(token));
    return this.resolve(list[list.length - 1] as Registration<T>, null);
  }

  tryGet<T>(token: Token<T>): T | undefined {
    const list = this.entries.get(token);
    if (!list || list.length === 0) return undefined;
    return this.resolve(list[list.length - 1] as Registration<T>, null);
  }

  getAll<T>(token: Token<T>): T[] {
    const list = this.entries.get(token);
    if (!list) return [];
    return list.map((r) => this.resolve(r as Registration<T>, null));
  }

  /** Opens a per-request scope. */
  createScope(): ServiceScope {
    return new ServiceScope(this);
  }

  /** @internal */
  resolve<T>(registration: Registration<T>, scope: ServiceScope | null): T {
    if (registration.hasValue) return registration.value as T;
    switch (registration.lifetime) {
      case Lifetime.Singleton: {
        const made = this.#singletons.get(registration);
        if (made !== undefined || this.#singletons.has(registration)) return made as T;
        const value = this.#construct(registration, this);
        this.#singletons.set(registration, value);
        return value;
      }
      case Lifetime.Scoped:
        if (!scope) {
          throw new ServiceLifetimeError(
            `${tokenName(registration.token)} is scoped (one per request) and cannot be resolved outside a request or from a singleton.`,
          );
        }
        return scope.scoped(registration, () => this.#construct(registration, scope));
      default:
        return this.#construct(registration, scope ?? this);
    }
  }

  #construct<T>(registration: Registration<T>, resolver: ServiceResolver): T {
    if (this.#resolving.includes(registration)) {
      throw new ServiceCycleError([...this.#resolving, registration].map((r) => tokenName(r.token)));
    }
    this.#resolving.push(registration);
    try {
      return registration.factory(resolver);
    } finally {
      this.#resolving.pop();
    }
  }
}

/** A per-request resolver: scoped services live as long as it does. */
export class ServiceScope implements ServiceResolver {
  #scoped: Map<Registration, unknown> | null = null;

  constructor(readonly root: ServiceProvider) {}

  get<T>(token: Token<T>): T {
    const list = this.root.entries.get(token);
    if (!list || list.length === 0) throw new ServiceNotFoundError(tokenName(token));
    return this.root.resolve(list[list.length - 1] as Registration<T>, this);
  }

  tryGet<T>(token: Token<T>): T | undefined {
    const list = this.root.entries.get(token);
    if (!list || list.length === 0) return undefined;
    return this.root.resolve(list[list.length - 1] as Registration<T>, this);
  }

  getAll<T>(token: Token<T>): T[] {
    const list = this.root.entries.get(token);
    if (!list) return [];
    return list.map((r) => this.root.resolve(r as Registration<T>, this));
  }

  /** @internal */
  scoped<T>(registration: Registration<T>, make: () => T): T {
    this.#scoped ??= new Map();
    if (this.#scoped.has(registration)) return this.#scoped.get(registration) as T;
    const value = make();
    this.#scoped.set(registration, value);
    return value;
  }
}
