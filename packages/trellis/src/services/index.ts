export { ServiceCollection } from './collection.js';
export { ServiceProvider, ServiceScope } from './provider.js';
export { Lifetime, RegistrationType } from './registration.js';
export type { Factory, Registration, RegistrationOptions, ServiceResolver } from './registration.js';
export { createToken, tokenName } from './token.js';
export type { Token, TypedToken } from './token.js';
export { ServiceCycleError, ServiceLifetimeError, ServiceNotFoundError } from './errors.js';
