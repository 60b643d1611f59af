// Identity that API Gateway has already established, used by the app: a JWT authorizer's claims as the
// principal, and — for anonymous callers only, and only when you choose it — the caller's address as the
// rate-limit partition.
import type { AuthenticationResult, Authenticator, ExecutionContext } from 'trellis';
import { DefaultRateLimitPartitioner, type RateLimitPartitioner } from 'trellis/ratelimit';
import { lambdaInvocation } from 'trellis/lambda';

/** The subject and scopes of an HTTP API JWT authorizer (or Cognito claims on a REST API) as the principal. */
export class GatewayJwtAuthenticator implements Authenticator {
  readonly scheme = 'Bearer';

  authenticate(ctx: ExecutionContext): AuthenticationResult {
    const authorizer = lambdaInvocation(ctx)?.authorizer;
    const subject = authorizer?.claims?.sub;
    if (typeof subject !== 'string' || subject === '') return { kind: 'none' };
    return {
      kind: 'success',
      principal: { subject, grants: new Set(authorizer?.scopes ?? []), scheme: 'gateway-jwt', claims: authorizer?.claims ?? {} },
    };
  }
}

/**
 * The default partitioner (subject, then partition header, then one shared anonymous bucket), except that
 * anonymous callers are told apart by the address API Gateway saw. Opt in only where one address is one
 * caller: behind a shared NAT or proxy, many callers share an address and so one allowance.
 */
export class SourceIpPartitioner implements RateLimitPartitioner {
  readonly #fallback = new DefaultRateLimitPartitioner();

  partition(ctx: ExecutionContext): string {
    const partition = this.#fallback.partition(ctx);
    const sourceIp = lambdaInvocation(ctx)?.sourceIp;
    return partition === DefaultRateLimitPartitioner.Anonymous && sourceIp ? `ip:${sourceIp}` : partition;
  }
}
