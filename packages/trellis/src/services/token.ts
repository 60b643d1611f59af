/** A service token that exists at run time: a class (abstract or not) or a typed symbol. */
export type Token<T> = TypedToken<T> | (abstract new (...args: any[]) => T);

declare const tokenType: unique symbol;
/** A symbol that carries the type of the service it names. */
export type TypedToken<T> = symbol & { readonly [tokenType]?: T };

/**
 * Creates a typed symbol token for an interface-shaped service.
 *
 * @example
 * interface Clock { now(): number }
 * export const Clock = createToken<Clock>('Clock');
 * app.services.add(Clock, () => ({ now: Date.now }));
 */
export function createToken<T>(description: string): TypedToken<T> {
  return Symbol(description);
}

/** A readable name for a token, used in error messages. */
export function tokenName(token: Token<unknown>): string {
  if (typeof token === 'symbol') return token.description ?? 'anonymous token';
  return token.name || 'anonymous class';
}
