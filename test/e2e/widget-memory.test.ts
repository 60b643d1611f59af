// A function's memory is counted as Lambda counts it: AWS's awsCall sample (CommonJS, `import()` of the EC2
// client from the SDK the runtime provides) runs at 128 MB, as it does on Lambda. It used to run out of memory
// here now and then: the loader thread that lets `import` find the provided SDK, and the pages of the Node.js
// program itself, were counted against the function.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FunctionRegistry, validateFunctionsConfig } from '../../packages/harness/src/dashboard/index.js';
import { providedSdkScope } from '../../packages/harness/src/dashboard/functions/aws-sdk-path.js';
import { hasInThreadHooks } from '../../packages/harness/src/dashboard/functions/module-targets.js';
import { findNodeBinary } from '../../packages/harness/src/dashboard/functions/node-binaries.js';

const HANDLER = `const { readFileSync } = require('node:fs');
exports.handler = async () => {
  // As AWS's awsCall sample does: the client is imported by name from CommonJS.
  const { EC2Client } = await import('@aws-sdk/client-ec2');
  new EC2Client({ region: 'us-east-1' });
  const peak = /^VmHWM:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/status', 'latin1'));
  return { peakMiB: Number(peak[1]) / 1024, node: process.version };
};
`;
const RUNS = 5;

/** The runtime to run on: the harness's own Node.js when it has in-thread module hooks, else nodejs22.x's. */
async function pickRuntime(): Promise<{ runtime?: 'nodejs22.x'; node: string } | string> {
  if (process.platform !== 'linux') return 'memory is watched through /proc';
  if (!providedSdkScope()) return "the harness's AWS SDK clients are not installed";
  if (hasInThreadHooks(process.version)) return { node: process.execPath };
  const found = await findNodeBinary(22);
  if (found.source === 'fallback' || !hasInThreadHooks(found.version))
    return `Node.js 22.15 or later is not available here (${found.problem ?? found.version})`;
  return { runtime: 'nodejs22.x', node: found.path };
}

describe('memory counted as Lambda counts it', async () => {
  const picked = await pickRuntime();
  const skip = typeof picked === 'string' ? picked : false;
  // The harness's copy finds the SDK as on Lambda (through NODE_PATH); a plain node's copy through a node_modules link.
  const root = mkdtempSync(join(tmpdir(), 'trellis-memory-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const [harnessDir, plainDir] = [join(root, 'function'), join(root, 'plain')];
  for (const dir of [harnessDir, plainDir]) {
    mkdirSync(dir);
    writeFileSync(join(dir, 'awscall.js'), HANDLER);
  }
  const scope = providedSdkScope();
  if (scope) {
    mkdirSync(join(plainDir, 'node_modules'));
    symlinkSync(scope, join(plainDir, 'node_modules', '@aws-sdk'));
  }
  const harnessPeaks: number[] = [];

  it(
    `runs a CommonJS function that imports the EC2 client at 128 MB in ${RUNS} fresh environments, never out of memory`,
    { skip, timeout: 120_000 },
    async () => {
      const { runtime } = picked as { runtime?: 'nodejs22.x' };
      const config = validateFunctionsConfig(
        { functions: { awsCall: { handler: 'awscall.handler', memoryMB: 128, timeoutSeconds: 60, ...(runtime ? { runtime } : {}) } } },
        harnessDir,
      );
      for (let i = 0; i < RUNS; i++) {
        const registry = new FunctionRegistry(config);
        try {
          const outcome = await registry.invoke('awsCall', {});
          assert.equal(outcome.ok, true, `run ${i + 1}: ${outcome.error?.type}: ${outcome.error?.message}`);
          harnessPeaks.push((outcome.value as { peakMiB: number }).peakMiB);
        } finally {
          await registry.close();
        }
      }
    },
  );

  it(
    'its peak memory in the harness is that of a plain node running the same handler with the same heap sizes',
    { skip, timeout: 120_000 },
    () => {
      assert.equal(harnessPeaks.length, RUNS, 'the runs above');
      const { node } = picked as { node: string };
      const plainPeaks: number[] = [];
      for (let i = 0; i < 3; i++) {
        const run = spawnSync(
          node,
          [
            '--max-semi-space-size=6',
            '--max-old-space-size=116',
            '-e',
            `require('./awscall.js').handler().then((v) => process.stdout.write(JSON.stringify(v)))`,
          ],
          { cwd: plainDir, encoding: 'utf8', timeout: 60_000 },
        );
        assert.equal(run.status, 0, run.stderr);
        plainPeaks.push((JSON.parse(run.stdout) as { peakMiB: number }).peakMiB);
      }
      // A loader thread of its own cost the function 45 to 50 MiB more at its peak.
      const over = Math.max(...harnessPeaks) - Math.max(...plainPeaks);
      assert.ok(
        over < 16,
        `the harness's peaks ${harnessPeaks.map((p) => p.toFixed(0)).join(', ')} MiB, a plain node's ${plainPeaks.map((p) => p.toFixed(0)).join(', ')} MiB`,
      );
    },
  );
});
