import { Authenticator } from '../index.js';
import type { ServiceResolver } from '../index.js';

/** The app's security schemes, by the name the document gives each. */
export type SecuritySchemes = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

const NAME = /[^A-Za-z0-9._-]/g;

/** The registered authenticators; none when the app cannot say (scoped ones need a request). */
function authenticators(services: ServiceResolver | undefined): Authenticator[] {
  try {
    return services?.getAll(Authenticator) ?? [];
  } catch {
    return [];
  }
}

/** What the document says of one authenticator: what it says of itself, else an HTTP scheme of its name. */
function schemeOf(authenticator: Authenticator): Readonly<Record<string, unknown>> {
  const own = authenticator.securityScheme;
  if (own !== null && typeof own === 'object' && typeof own.type === 'string')
    return JSON.parse(JSON.stringify(own)) as Record<string, unknown>;
  return { type: 'http', scheme: String(authenticator.scheme) };
}

/**
 * The security schemes of the authenticators registered on the app, in registration order, named after their
 * schemes (`ApiKey`, `Bearer`); two that describe different credentials under one scheme name get `ApiKey_2`, ….
 */
export function securitySchemes(services: ServiceResolver | undefined): SecuritySchemes {
  const out = new Map<string, Readonly<Record<string, unknown>>>();
  for (const authenticator of authenticators(services)) {
    const scheme = schemeOf(authenticator);
    const text = JSON.stringify(scheme);
    const base = String(authenticator.scheme ?? '').replace(NAME, '_') || 'Authenticator';
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}_${n}`;
      const held = out.get(name);
      if (held === undefined) {
        out.set(name, scheme);
        break;
      }
      if (JSON.stringify(held) === text) break;
    }
  }
  return out;
}
