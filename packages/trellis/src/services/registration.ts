import type { Token } from './token.js';

/** How long one resolved instance lives. */
export const Lifetime = {
  /** One instance for the whole app. */
  Singleton: 'singleton',
  /** One instance per request. */
  Scoped: 'scoped',
  /** A new instance every time it is resolved. */
  Transient: 'transient',
} as const;
export type Lifetime = (typeof Lifetime)[keyof typeof Lifetime];

/** What a registration does to registrations already made for the same token. */
export const RegistrationType = {
  /** Appends; `get` resolves the last registration, `getAll` all of them in order. */
  Add: 'add',
  /** Adds only when nothing is registered for the token yet. */
  Try: 'try',
  /** Removes what is registered for the token, then adds. */
  Replace: 'replace',
} as const;
export type RegistrationType = (typeof RegistrationType)[keyof typeof RegistrationType];

/** Resolves services; handed to factories so they can depend on other services. */
export interface ServiceResolver {
  get<T>(token: Token<T>): T;
  tryGet<T>(token: Token<T>): T | undefined;
  getAll<T>(token: Token<T>): T[];
}

export type Factory<T> = (services: ServiceResolver) => T;

export interface RegistrationOptions {
  lifetime?: Lifetime;
  type?: RegistrationType;
}

/** One entry of the container. */
export interface Registration<T = unknown> {
  readonly token: Token<T>;
  readonly lifetime: Lifetime;
  readonly factory: Factory<T>;
  /** Set for registrations made with a value: they are never constructed. */
  readonly hasValue: boolean;
  readonly value?: T;
}
