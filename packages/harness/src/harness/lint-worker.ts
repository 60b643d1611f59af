// Runs the linter in a worker thread for the harness, so a costly document cannot hold up other requests.
import { parentPort } from 'node:worker_threads';
import { lint } from '../lint/index.js';

parentPort!.on('message', (job: { id: number; html: string }) => {
  try {
    parentPort!.postMessage({ id: job.id, findings: lint(job.html) });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: String((error as Error)?.message ?? error) });
  }
});
