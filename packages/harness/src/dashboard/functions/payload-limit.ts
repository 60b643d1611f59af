// Lambda's limit on a synchronous invocation's response, and the error it answers beyond it. The harness holds
// its functions to the same limit, so a widget that works here is not refused in AWS for its size.
import type { InvokeError } from './types.js';

/** Largest response payload Lambda returns from a synchronous invocation, in bytes of JSON (6 MB). */
export const MAX_RESPONSE_BYTES = 6_291_556;

/** Lambda's error for a response over {@link MAX_RESPONSE_BYTES}. */
export function responseTooLarge(bytes?: number): InvokeError {
  const size = bytes === undefined ? '' : ` The response was ${bytes} bytes.`;
  return {
    type: 'Function.ResponseSizeTooLarge',
    message: `Response payload size exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).${size}`,
  };
}

/** A fetch response body as text; undefined (the body cancelled) once it passes `limit` bytes. */
export async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, bytes).toString('utf8');
}
