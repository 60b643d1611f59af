// The certificate of the local HTTPS server that `trellis aws-samples` gives Node.js samples through
// NODE_EXTRA_CA_CERTS: a leaf for 127.0.0.1 that a function trusts for that server and for nothing else.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { makeLoopbackCertificate, startLocalHttps } from './local-https.js';

const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'trellis-https-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const openssl = (...args: string[]): void => {
  const run = spawnSync('openssl', args, { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
};

/**
 * `trusted` when a TLS client that trusts only `ca` accepts the server at `port` as `servername` (else as
 * 127.0.0.1), else the client's error code.
 */
function handshake(port: number, servername: string | undefined, ca: Buffer): Promise<string> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port, ...(servername ? { servername } : {}), ca: [ca] }, () => {
      socket.end();
      done('trusted');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

async function listen(key: Buffer, cert: Buffer): Promise<{ port: number; close: () => void }> {
  const server = createServer({ key, cert }, (_req, res) => res.end('ok'));
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return { port, close: () => server.close() };
}

describe('the local HTTPS certificate', { skip: hasOpenssl ? false : 'openssl is not installed here', timeout: 60_000 }, () => {
  it('is a leaf for TLS servers that names 127.0.0.1 only', () => {
    const made = makeLoopbackCertificate(mkdtempSync(join(dir, 'leaf-')));
    assert.ok(made);
    const cert = new X509Certificate(readFileSync(made.cert));
    assert.equal(cert.ca, false);
    assert.equal(cert.subjectAltName, 'IP Address:127.0.0.1');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']); // serverAuth, the only extended key usage
    const text = spawnSync('openssl', ['x509', '-in', made.cert, '-noout', '-text'], { encoding: 'utf8' }).stdout;
    assert.match(text, /X509v3 Basic Constraints: critical\s+CA:FALSE/);
    assert.match(text, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment\n/);
  });

  it('is not a CA: a certificate for s3.amazonaws.com signed with its key is not trusted by a client that trusts it', async () => {
    const made = makeLoopbackCertificate(mkdtempSync(join(dir, 'issuer-')));
    assert.ok(made);
    const forged = mkdtempSync(join(dir, 'forged-'));
    const ext = join(forged, 'ext.cnf');
    writeFileSync(ext, 'subjectAltName = DNS:s3.amazonaws.com\nextendedKeyUsage = serverAuth\n');
    const file = (name: string): string => join(forged, name);
    openssl(
      ...'req -new -newkey rsa:2048 -nodes -subj /CN=s3.amazonaws.com'.split(' '),
      '-keyout',
      file('key.pem'),
      '-out',
      file('req.pem'),
    );
    openssl(
      ...'x509 -req -CAcreateserial -days 1'.split(' '),
      '-in',
      file('req.pem'),
      '-CA',
      made.cert,
      '-CAkey',
      made.key,
      '-extfile',
      ext,
      '-out',
      file('cert.pem'),
    );
    const trusted = readFileSync(made.cert);
    const own = await listen(readFileSync(made.key), trusted);
    const impostor = await listen(readFileSync(file('key.pem')), readFileSync(file('cert.pem')));
    try {
      assert.equal(await handshake(own.port, undefined, trusted), 'trusted');
      const refused = await handshake(impostor.port, 's3.amazonaws.com', trusted);
      // Refused by certificate verification (its code depends on the OpenSSL version), not by the connection.
      assert.notEqual(refused, 'trusted');
      assert.doesNotMatch(refused, /^E[A-Z]+$/);
    } finally {
      own.close();
      impostor.close();
    }
  });

  it('is trusted through NODE_EXTRA_CA_CERTS by a Node.js process fetching from the server', async () => {
    const https = await startLocalHttps((_req, res) => res.end('from the local server'));
    assert.ok(https);
    try {
      const script = `fetch('https://127.0.0.1:${https.port}/').then((r) => r.text()).then(console.log, (e) => console.log('failed', e.cause?.code ?? e.message));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: https.caFile },
        timeout: 30_000,
      });
      assert.equal(stdout.trim(), 'from the local server');
    } finally {
      https.close();
    }
  });
});
