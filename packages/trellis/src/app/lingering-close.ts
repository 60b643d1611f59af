import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused upload may go on after its answer, in all and without a byte arriving. */
export const LINGER_MS = 5_000;
export const LINGER_IDLE_MS = 1_000;
/** How many bytes of a refused upload are read and dropped after its answer, at most. */
export const LINGER_BYTES = 32 * 1024 * 1024;

/**
 * Closes a connection whose request body was not read to its end in stages (RFC 9112 §9.6): once the answer is
 * written, the server half-closes and goes on reading and dropping what the client still sends, so a client
 * that writes its whole body before it reads gets the answer instead of a reset. The drain ends when the client
 * closes its side, or after {@link LINGER_BYTES} bytes, {@link LINGER_MS} in all or {@link LINGER_IDLE_MS}
 * without a byte: a refused client cannot hold the connection open.
 */
export function closeAfterAnswer(req: IncomingMessage): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // node:http ends a `Connection: close` response with `destroySoon()`, which resets a client still sending.
  socket.destroySoon = () => {
    let drained = 0;
    const stop = () => {
      clearTimeout(total);
      clearTimeout(idle);
      socket.destroy();
    };
    const total = setTimeout(stop, LINGER_MS);
    let idle = setTimeout(stop, LINGER_IDLE_MS);
    socket.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) return stop();
      clearTimeout(idle);
      idle = setTimeout(stop, LINGER_IDLE_MS);
    });
    socket.once('end', stop);
    socket.once('error', stop);
    socket.once('close', stop);
    socket.end();
    // What the client still sends is read and dropped (a refused body was left paused).
    req.resume();
    socket.resume();
  };
}
