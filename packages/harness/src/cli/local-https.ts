// An HTTPS server on 127.0.0.1 with a certificate made for it (openssl), for samples that fetch only https://
// URLs: the functions that call it trust the certificate through NODE_EXTRA_CA_CERTS.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalHttps {
  readonly port: number;
  /** The certificate, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  close(): void;
}

/** Starts the server; undefined when no certificate can be made here (no openssl). */
export async function startLocalHttps(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalHttps | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-https-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore', timeout: 30_000 },
  );
  if (made.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, handler);
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return {
    port,
    caFile: cert,
    close() {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
