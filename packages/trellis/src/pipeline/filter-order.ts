/**
 * The built-in stages, in the order they run. Gaps leave room for application filters at any order below
 * `Serialization`, which is terminal.
 */
export const FilterOrder = {
  RateLimitTransport: 100,
  Authentication: 200,
  RateLimitPrincipal: 300,
  Authorization: 400,
  ResponseCache: 500,
  Serialization: 1000,
} as const;
export type FilterOrder = (typeof FilterOrder)[keyof typeof FilterOrder];
