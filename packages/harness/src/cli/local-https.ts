// An HTTPS server on 127.0.0.1 with a certificate made for it (openssl), for samples that fetch only https://
// URLs: the functions that call it trust the certificate through NODE_EXTRA_CA_CERTS. The certificate is a
// leaf (CA:FALSE, for serverAuth, naming 127.0.0.1 only): a function that trusts it trusts this server and
// nothing else, not a certificate for another host signed with its key.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The address the server listens on, and the one name its certificate holds. */
const HOST = '127.0.0.1';

// A configuration of its own (not the system's openssl.cnf, whose x509_extensions make a CA): the extensions of
// a TLS server's leaf certificate.
const OPENSSL_CONFIG = `[req]
distinguished_name = subject
x509_extensions = leaf
prompt = no

[subject]
CN = ${HOST}

[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:${HOST}
subjectKeyIdentifier = hash
`;

/**
 * Makes a self-signed leaf certificate for 127.0.0.1 and its RSA key in `dir` (`key.pem`, `cert.pem`);
 * undefined when openssl is not there or fails.
 *
 * @example
 * const made = makeLoopbackCertificate(mkdtempSync(join(tmpdir(), 'https-'))); // { key: '/tmp/https-x/key.pem', cert: '/tmp/https-x/cert.pem' }
 */
export function makeLoopbackCertificate(dir: string): { key: string; cert: string } | undefined {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const config = join(dir, 'openssl.cnf');
  writeFileSync(config, OPENSSL_CONFIG, { flag: 'wx', mode: 0o600 });
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-config', config, '-newkey', 'rsa:2048', '-sha256', '-nodes', '-keyout', key, '-out', cert, '-days', '1'],
    { stdio: 'ignore', timeout: 30_000 },
  );
  return made.status === 0 ? { key, cert } : undefined;
}

/** Starts the server; undefined when no certificate can be made here (no openssl). */
export async function startLocalHttps(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalHttps | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-https-'));
  const made = makeLoopbackCertificate(dir);
  if (!made) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const server = createServer({ key: readFileSync(made.key), cert: readFileSync(made.cert) }, handler);
  const port = await new Promise<number>((resolve) => server.listen(0, HOST, () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    caFile: made.cert,
    close() {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
