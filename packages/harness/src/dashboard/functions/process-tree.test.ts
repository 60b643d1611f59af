import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { unreclaimableMiB } from './process-tree.js';

const kib = (status: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);

test(
  "a process's memory is counted without the pages of its program file, which the kernel reclaims under a memory limit",
  { skip: process.platform === 'linux' ? false : 'read from /proc' },
  async () => {
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("up\\n"); setInterval(() => {}, 1000)'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await once(child.stdout, 'data');
      const counted = unreclaimableMiB(child.pid!);
      const status = readFileSync(`/proc/${child.pid}/status`, 'latin1');
      assert.ok(counted !== null);
      // An idle Node.js: tens of MiB of the node program's own pages are resident, its own memory is a few MiB.
      assert.ok(kib(status, 'RssFile') / 1024 > 16, status);
      assert.ok(Math.abs(counted - (kib(status, 'RssAnon') + kib(status, 'RssShmem')) / 1024) < 2, `${counted} MiB counted; ${status}`);
      assert.ok(counted < kib(status, 'VmRSS') / 1024 - 16, `${counted} MiB counted; ${status}`);
    } finally {
      child.kill();
    }
    await once(child, 'exit');
    assert.equal(unreclaimableMiB(child.pid!), null, 'a process that is gone has no memory');
  },
);
