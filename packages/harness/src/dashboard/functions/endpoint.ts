/**
 * Function identifiers as the Lambda Invoke API accepts them: a name (`my-fn`), a name with a qualifier
 * (`my-fn:prod`), a partial ARN (`123456789012:function:my-fn`) or a full ARN
 * (`arn:aws:lambda:eu-west-1:123456789012:function:my-fn:7`).
 */

export interface ParsedEndpoint {
  name: string;
  qualifier?: string;
  region?: string;
  accountId?: string;
  partition?: string;
  /** The ARN without its qualifier, when the identifier was a full ARN. */
  unqualifiedArn?: string;
}

const NAME = '[a-zA-Z0-9_-]{1,140}';
const QUALIFIER = '(?::(\\$LATEST|[a-zA-Z0-9_-]{1,128}))?';
const FULL_ARN = new RegExp(`^arn:(aws[a-zA-Z-]*):lambda:([a-z0-9-]+):(\\d{12}):function:(${NAME})${QUALIFIER}$`);
const PARTIAL_ARN = new RegExp(`^(\\d{12}):function:(${NAME})${QUALIFIER}$`);
const PLAIN = new RegExp(`^(${NAME})${QUALIFIER}$`);

/**
 * Parses a function identifier; `undefined` when it is none of the accepted forms.
 *
 * @example
 * parseEndpoint('arn:aws:lambda:us-east-1:123456789012:function:hello:prod');
 * // { name: 'hello', qualifier: 'prod', region: 'us-east-1', accountId: '123456789012', ... }
 */
export function parseEndpoint(endpoint: string): ParsedEndpoint | undefined {
  let m = FULL_ARN.exec(endpoint);
  if (m) {
    const [, partition, region, accountId, name, qualifier] = m as unknown as string[];
    return {
      name: name!,
      ...(qualifier ? { qualifier } : {}),
      region: region!,
      accountId: accountId!,
      partition: partition!,
      unqualifiedArn: `arn:${partition}:lambda:${region}:${accountId}:function:${name}`,
    };
  }
  m = PARTIAL_ARN.exec(endpoint);
  if (m) return { name: m[2]!, ...(m[3] ? { qualifier: m[3] } : {}), accountId: m[1]! };
  m = PLAIN.exec(endpoint);
  if (m) return { name: m[1]!, ...(m[2] ? { qualifier: m[2] } : {}) };
  return undefined;
}

/** Lambda's rule for function names given on their own (1–64 of letters, digits, `-`, `_`). */
export const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
