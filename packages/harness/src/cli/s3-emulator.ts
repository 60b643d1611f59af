// An S3 emulator (s3rver, an optional dependency of the harness) on 127.0.0.1 at a free port, for widgets that
// read S3 through the harness's AWS endpoint option. Objects are put with the AWS SDK, as a user would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverClass = new (options: object) => S3rverInstance;

/** The key pair s3rver accepts. */
export const S3RVER_KEY = 'S3RVER';

export interface S3Emulator {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The URL with s3rver's credentials in it, as the harness's `awsEndpoint` takes it. */
  endpointWithCredentials: string;
  put(bucket: string, key: string, body: string, contentType?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts s3rver with the given buckets in a temporary folder.
 *
 * @example
 * const s3 = await startS3Emulator(['reports']);
 * await s3.put('reports', 'daily.html', '<p>ok</p>');
 * await s3.close();
 */
export async function startS3Emulator(buckets: string[]): Promise<S3Emulator> {
  const missing =
    (name: string) =>
    (error: unknown): never => {
      throw new Error(`the S3 emulator needs the ${name} package (npm install --save-dev ${name})`, { cause: error });
    };
  // Loaded when asked for: both are optional dependencies of the harness (s3rver has no types, hence a name
  // TypeScript does not resolve).
  const s3rver: string = 's3rver';
  const { default: S3rver } = (await import(s3rver).catch(missing('s3rver'))) as { default: S3rverClass };
  const { PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3').catch(missing('@aws-sdk/client-s3'));
  const directory = mkdtempSync(join(tmpdir(), 'trellis-s3-'));
  const instance = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = await instance.run();
  const url = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: url,
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
  });
  return {
    url,
    endpointWithCredentials: `http://${S3RVER_KEY}:${S3RVER_KEY}@127.0.0.1:${address.port}`,
    async put(bucket, key, body, contentType = 'text/html') {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async close() {
      client.destroy();
      instance.httpServer.closeAllConnections();
      await instance.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
