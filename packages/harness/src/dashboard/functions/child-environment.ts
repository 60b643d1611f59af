/**
 * One execution environment: a warm child process that runs one invocation at a time, spoken to in JSON lines
 * on fd 3 (see runtime/node-bootstrap.cjs). It owns the Lambda rules that need a process boundary: the init phase, the
 * timeout (the process is killed), and a crash (the process is gone; the next call starts a fresh one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { timeoutError } from './lambda-context.js';
import { LogBuffer } from './console-capture.js';
import type { Settled } from './invocation-start.js';
import { LineReader, type OversizeLine } from './line-reader.js';
import { ENVIRONMENT_MARKER, killEnvironment, unreclaimableMiB } from './process-tree.js';
import { MAX_RESPONSE_BYTES, responseTooLarge } from './payload-limit.js';
import type { InvokeError } from './types.js';

export interface SpawnSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Memory the process may hold that the kernel cannot reclaim (the function's memory, plus what the harness's own loader costs). */
  memoryLimitMiB?: number;
  /** A line the harness writes at the head of the process's init logs (e.g. which Node.js it fell back to). */
  initLog?: string;
}

/** What the child reports for one invocation, before the parent adds request id and duration. */
export type ChildResult = Settled & { logs: string };

interface ErrorDocument {
  errorType?: unknown;
  errorMessage?: unknown;
  trace?: unknown;
  stackTrace?: unknown;
}

/** Lambda's error document (`trace` from Node.js, `stackTrace` from Python) as an {@link InvokeError}. */
export function fromErrorDocument(doc: ErrorDocument | null | undefined): InvokeError {
  const type = typeof doc?.errorType === 'string' ? doc.errorType : 'Error';
  const message = typeof doc?.errorMessage === 'string' ? doc.errorMessage : JSON.stringify(doc?.errorMessage ?? null);
  const rawTrace = Array.isArray(doc?.trace) ? doc.trace : Array.isArray(doc?.stackTrace) ? doc.stackTrace : undefined;
  const error: InvokeError = { type, message };
  if (rawTrace) error.trace = rawTrace.map((line) => String(line));
  return error;
}

/** Longest line read from a child: a result at Lambda's limit with its envelope. */
const MAX_LINE_BYTES = MAX_RESPONSE_BYTES + 1024;

// Children still running when the host exits without close() are killed with it, busy or not, together with
// every process they started.
const live = new Map<ChildProcess, string>();
let exitHookInstalled = false;
function track(child: ChildProcess, marker: string): void {
  live.set(child, marker);
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const [c, m] of live) killEnvironment(c.pid, m);
    });
  }
}

/** How often a running process's resident memory is checked against its limit. */
const MEMORY_CHECK_MS = 100;

interface Running {
  id: number;
  log: LogBuffer;
  finish: (result: Settled) => void;
}

/**
 * A single child process. `start()` resolves once the handler is loaded (or with the init error);
 * `invoke()` never rejects; after a timeout, a crash or an init error the environment is `dead`.
 */
export class ChildEnvironment {
  private child: ChildProcess | undefined;
  private channel: (Readable & Writable) | undefined;
  private running: Running | undefined;
  private initLog = new LogBuffer();
  private startPromise: Promise<InvokeError | undefined> | undefined;
  private onReady: ((error: InvokeError | undefined) => void) | undefined;
  private exitWaiters: Array<() => void> = [];
  private nextId = 1;
  dead = false;
  /** Set when the process passed its memory limit: its death is reported as Lambda's out-of-memory error. */
  private outOfMemory = false;
  /** Marks this environment's processes (see process-tree.ts). */
  private readonly marker = randomUUID();
  /** Set once the process is being killed: it must not be handed another invocation. */
  retiring = false;
  busy = false;
  /** Called once when the process has gone (for the pool to forget it). */
  onDeath: (() => void) | undefined;
  /** Called when the process announces that it is ending, before it has gone. */
  onRetire: (() => void) | undefined;

  constructor(
    private readonly spec: SpawnSpec,
    private readonly initTimeoutSeconds: number,
  ) {
    if (spec.initLog) this.log(`${spec.initLog}\n`);
  }

  /** Starts the process and loads the handler; resolves with the init error, if any. */
  start(): Promise<InvokeError | undefined> {
    this.startPromise ??= new Promise<InvokeError | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.onReady = undefined;
        // Its promise says when the process is gone; the timed-out start answers now.
        void this.kill();
        resolve({ type: 'Sandbox.Timedout', message: `Init timed out after ${this.initTimeoutSeconds.toFixed(2)} seconds` });
      }, this.initTimeoutSeconds * 1000);
      this.onReady = (error) => {
        clearTimeout(timer);
        this.onReady = undefined;
        if (error) void this.kill();
        resolve(error);
      };
      let child: ChildProcess;
      try {
        // Its own process group, and a marker its descendants inherit: all of them die with it.
        child = spawn(this.spec.command, this.spec.args, {
          cwd: this.spec.cwd,
          env: { ...this.spec.env, [ENVIRONMENT_MARKER]: this.marker },
          stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
          windowsHide: true,
          detached: true,
        });
      } catch (error) {
        this.onReady({ type: 'Runtime.ExitError', message: `cannot start ${this.spec.command}: ${(error as Error).message}` });
        return;
      }
      this.child = child;
      track(child, this.marker);
      this.watchMemory(child);
      this.channel = child.stdio[3] as Readable & Writable;
      this.listen(child);
    });
    return this.startPromise;
  }

  private listen(child: ChildProcess): void {
    child.on('error', (error) => this.gone(`Runtime exited with error: ${error.message}`));
    child.on('exit', (code, signal) => {
      killEnvironment(child.pid, this.marker);
      this.gone(`Runtime exited with error: ${signal ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal}` : `exit status ${code}`}`);
    });
    const stray = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      if (text.includes('JavaScript heap out of memory')) this.outOfMemory = true;
      this.log(text);
    };
    child.stdout?.on('data', stray);
    child.stderr?.on('data', stray);
    const channel = this.channel!;
    channel.on('error', () => {});
    const lines = new LineReader(
      MAX_LINE_BYTES,
      (line) => this.message(line),
      (line) => this.oversize(line),
    );
    channel.on('data', (chunk: Buffer) => lines.push(chunk));
    // A forgotten environment must not keep the host process alive; a running invocation's timer does.
    child.unref();
    for (const stream of [child.stdout, child.stderr, channel] as Array<{ unref?: () => void } | null>) stream?.unref?.();
  }

  /** A line longer than any result Lambda returns: a result is refused as Lambda would, a log write noted. */
  private oversize(line: OversizeLine): void {
    const result = /^\{\s*"t"\s*:\s*"result"\s*,\s*"id"\s*:\s*(\d+)/.exec(line.head);
    if (result) {
      if (this.running && Number(result[1]) === this.running.id) this.running.finish({ ok: false, error: responseTooLarge() });
      return;
    }
    this.log(`[a write of ${line.bytes} bytes to the log was dropped: one write may be at most ${MAX_LINE_BYTES} bytes]\n`);
  }

  private message(line: string): void {
    let msg: { t?: string; d?: unknown; id?: number; ok?: boolean; value?: unknown; error?: ErrorDocument };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      this.log(line + '\n');
      return;
    }
    if (msg.t === 'log') this.log(String(msg.d));
    else if (msg.t === 'ready') this.onReady?.(undefined);
    else if (msg.t === 'initError') this.onReady?.(fromErrorDocument(msg.error));
    else if (msg.t === 'exiting') this.retire();
    else if (msg.t === 'result' && this.running && msg.id === this.running.id) {
      if (this.retiring) this.finishOnExit(this.running);
      if (msg.ok && line.length > MAX_RESPONSE_BYTES / 3) {
        // Lambda counts the bytes of the serialised response: the line less its envelope.
        const payload = Buffer.byteLength(line) - (line.indexOf('"value":') + '"value":'.length) - 1;
        if (payload > MAX_RESPONSE_BYTES) return this.running.finish({ ok: false, error: responseTooLarge(payload) });
      }
      this.running.finish(msg.ok ? { ok: true, value: msg.value } : { ok: false, error: fromErrorDocument(msg.error) });
    }
  }

  private log(text: string): void {
    (this.running?.log ?? this.initLog).add(text);
  }

  /** Kills the process once the memory it holds passes its limit, as Lambda ends a function over its memory. */
  private watchMemory(child: ChildProcess): void {
    const limit = this.spec.memoryLimitMiB;
    if (limit === undefined || child.pid === undefined) return;
    const pid = child.pid;
    const timer = setInterval(() => {
      const held = unreclaimableMiB(pid);
      if (held !== null && held > limit && !this.dead) {
        this.outOfMemory = true;
        void this.kill();
      }
    }, MEMORY_CHECK_MS);
    timer.unref();
    child.once('exit', () => clearInterval(timer));
  }

  private gone(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    const error: InvokeError = this.outOfMemory
      ? { type: 'Runtime.OutOfMemory', message: `${reason} (the function used more than its memory size)` }
      : { type: 'Runtime.ExitError', message: reason };
    this.onReady?.(error);
    this.running?.finish({ ok: false, error });
    for (const waiter of this.exitWaiters.splice(0)) waiter();
    this.onDeath?.();
  }

  /**
   * A crash's outcome (the process said it is ending) waits for the process to be gone, as a timeout's does,
   * so the next call never meets it still running; the exit's own error does not replace the crash's.
   */
  private finishOnExit(running: Running): void {
    const finish = running.finish;
    running.finish = (result) => {
      running.finish = () => {};
      const exited = this.dead ? Promise.resolve() : new Promise<void>((resolve) => this.exitWaiters.push(resolve));
      void exited.then(() => finish(result));
    };
  }

  /** The output printed while starting, when no invocation will run (after an init error). */
  takeInitLogs(): string {
    return this.initLog.take();
  }

  /**
   * Runs one invocation. The timeout starts now; when it passes, the process is killed.
   */
  invoke(payload: { requestId: string; deadline: number; arn: string; event: unknown }, timeoutSeconds: number): Promise<ChildResult> {
    return new Promise<ChildResult>((resolve) => {
      const id = this.nextId++;
      // What the process printed while starting opens the first invocation's log.
      const log = this.initLog;
      this.initLog = new LogBuffer();
      this.busy = true;
      // On timeout the outcome waits for the process to be gone, so a caller never sees a half-dead one.
      const timer = setTimeout(() => {
        running.finish = () => {};
        void this.kill().then(() => finish({ ok: false, error: timeoutError(timeoutSeconds) }));
      }, timeoutSeconds * 1000);
      const finish = (result: Settled): void => {
        if (this.running !== running) return;
        clearTimeout(timer);
        this.running = undefined;
        this.busy = false;
        resolve({ ...result, logs: running.log.take() });
      };
      const running: Running = { id, log, finish };
      this.running = running;
      if (this.dead || this.retiring || !this.channel)
        return finish({
          ok: false,
          error: { type: 'Runtime.ExitError', message: 'Runtime exited with error: the process is not running' },
        });
      let line: string;
      try {
        line = JSON.stringify({ t: 'invoke', id, ...payload });
      } catch (error) {
        return finish({
          ok: false,
          error: { type: 'InvalidRequestContentException', message: `Could not serialize the event: ${(error as Error).message}` },
        });
      }
      this.channel.write(line + '\n');
    });
  }

  /**
   * The process announced that it is ending (an uncaught exception or rejection): it takes no further
   * invocation, and the pool forgets it at once, so the next call starts a fresh environment.
   */
  private retire(): void {
    if (this.retiring) return;
    this.retiring = true;
    this.onRetire?.();
  }

  /** Kills the process (SIGKILL); resolves when it has exited. */
  kill(): Promise<void> {
    this.retiring = true;
    if (this.dead || !this.child) {
      this.dead = true;
      return Promise.resolve();
    }
    const exited = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    this.child.ref();
    killEnvironment(this.child.pid, this.marker);
    return exited;
  }
}
