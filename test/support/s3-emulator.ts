// An S3 emulator (s3rver, from npm) on 127.0.0.1 at a free port, for tests of widgets that read S3 through the
// harness's AWS endpoint option. Objects are put with the AWS SDK, as a user would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';

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
  const directory = mkdtempSync(join(tmpdir(), 'trellis-s3-'));
  const instance = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const address = (await instance.run()) as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint: url, forcePathStyle: true, credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY } });
  return {
    url,
    endpointWithCredentials: `http://${S3RVER_KEY}:${S3RVER_KEY}@127.0.0.1:${address.port}`,
    async put(bucket, key, body, contentType = 'text/html') {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async close() {
      client.destroy();
      const server = (instance as { httpServer: Server }).httpServer;
      server.closeAllConnections();
      await instance.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
