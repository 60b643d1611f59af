import { ServiceLifetimeError } from './errors.js';
import { Lifetime, RegistrationType } from './registration.js';
import type { Factory, Registration, RegistrationOptions } from './registration.js';
import { tokenName } from './token.js';
import type { Token } from './token.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_SERVICE', message);

/**
 * The application's service registrations. Framework defaults are kept apart and applied with
 * `RegistrationType.Try` when the app is built, so an application registration wins whatever its order.
 *
 * @example
 * app.services.add(RateLimitStore, () => new RedisRateLimitStore({ client }), { type: RegistrationType.Replace });
 * app.services.addValue(RateLimitConfiguration, { partitionHeader: 'x-tenant', maxTrackedPartitions: 10_000 });
 */
export class ServiceCollection {
  readonly #entries = new Map<Token<unknown>, Registration[]>();
  /** Tokens the application removed on purpose: framework defaults do not bring them back. */
  readonly #removed = new Set<Token<unknown>>();
  readonly #defaults: Registration[] = [];
  #frozen = false;

  /** Registers a factory. Lifetime defaults to singleton, type to `Add`. */
  add<T>(token: Token<T>, factory: Factory<T>, options: RegistrationOptions = {}): this {
    return this.#register({ token, factory, lifetime: options.lifetime ?? Lifetime.Singleton, hasValue: false }, options.type);
  }

  /** Registers a ready-made value (a singleton). */
  addValue<T>(token: Token<T>, value: T, options: { type?: RegistrationType } = {}): this {
    return this.#register({ token, factory: () => value, lifetime: Lifetime.Singleton, hasValue: true, value }, options.type);
  }

  /** `add` with `RegistrationType.Try`. */
  tryAdd<T>(token: Token<T>, factory: Factory<T>, options: Omit<RegistrationOptions, 'type'> = {}): this {
    return this.add(token, factory, { ...options, type: RegistrationType.Try });
  }

  /** `add` with `RegistrationType.Replace`. */
  replace<T>(token: Token<T>, factory: Factory<T>, options: Omit<RegistrationOptions, 'type'> = {}): this {
    return this.add(token, factory, { ...options, type: RegistrationType.Replace });
  }

  /** Removes every registration of a token; framework defaults for it are then not applied either. */
  remove(token: Token<unknown>): this {
    this.#assertOpen();
    this.#entries.delete(token);
    this.#removed.add(token);
    return this;
  }

  has(token: Token<unknown>): boolean {
    return (this.#entries.get(token)?.length ?? 0) > 0;
  }

  /** A framework default: applied with `Try` when the app is built. */
  addDefault<T>(token: Token<T>, factory: Factory<T>, lifetime: Lifetime = Lifetime.Singleton): this {
    this.#assertOpen();
    this.#defaults.push({ token, factory, lifetime, hasValue: false });
    return this;
  }

  /** Applies the defaults and freezes the collection; returns the final registrations. */
  seal(): ReadonlyMap<Token<unknown>, readonly Registration[]> {
    if (!this.#frozen) {
      for (const entry of this.#defaults) {
        if (!this.#removed.has(entry.token) && !this.has(entry.token)) this.#entries.set(entry.token, [entry]);
      }
      this.#frozen = true;
    }
    return this.#entries;
  }

  #register(entry: Registration, type: RegistrationType = RegistrationType.Add): this {
    this.#assertOpen();
    const { token } = entry;
    if (!Object.values(Lifetime).includes(entry.lifetime)) {
      throw invalid(`Unknown lifetime "${String(entry.lifetime)}" for ${tokenName(token)}; use Lifetime.Singleton, Scoped or Transient.`);
    }
    if (typeof entry.factory !== 'function') {
      throw invalid(`The factory for ${tokenName(token)} must be a function (services) => instance.`);
    }
    const list = this.#entries.get(token) ?? [];
    switch (type) {
      case RegistrationType.Add:
        list.push(entry);
        break;
      case RegistrationType.Try:
        if (list.length === 0) list.push(entry);
        break;
      case RegistrationType.Replace:
        list.length = 0;
        list.push(entry);
        break;
      default:
        throw invalid(`Unknown registration type "${String(type)}"; use RegistrationType.Add, Try or Replace.`);
    }
    this.#entries.set(token, list);
    return this;
  }

  #assertOpen(): void {
    if (this.#frozen) {
      throw new ServiceLifetimeError('Services cannot change once the app is built (after the first listen(), inject() or build()).');
    }
  }
}
