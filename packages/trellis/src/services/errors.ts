/** Thrown by `get` when nothing is registered for a token. */
export class ServiceNotFoundError extends Error {
  override readonly name = 'ServiceNotFoundError';
  constructor(readonly token: string) {
    super(`No service is registered for ${token}. Register one with app.services.add(${token}, ...) or use tryGet().`);
  }
}

/** Thrown when services depend on each other in a circle. */
export class ServiceCycleError extends Error {
  override readonly name = 'ServiceCycleError';
  constructor(path: string[]) {
    super(`Services depend on each other in a circle: ${path.join(' -> ')}`);
  }
}

/** Thrown when a scoped service is resolved outside a request, or registrations change after the app is built. */
export class ServiceLifetimeError extends Error {
  override readonly name = 'ServiceLifetimeError';
}
