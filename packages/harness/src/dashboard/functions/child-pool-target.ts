/**
 * A function run in child processes, like Lambda's execution environments: a warm process is reused, one
 * invocation at a time per process; concurrent invocations get more processes up to a limit, then wait.
 */
import { ChildEnvironment, type SpawnSpec } from './child-environment.js';
import { abortable, InvocationStart } from './invocation-start.js';
import type { FunctionIdentity } from './lambda-context.js';
import type { FunctionTarget, InvokeError, InvokeOptions, InvokeOutcome } from './types.js';

/** How many processes one function may have at once. */
export const MAX_ENVIRONMENTS = 4;

/** Runs a function in warm child processes made by `makeSpawnSpec` (called once per new process). */
export class ChildPoolTarget implements FunctionTarget {
  private readonly environments = new Set<ChildEnvironment>();
  private readonly idle: ChildEnvironment[] = [];
  private readonly waiting: Array<(env: ChildEnvironment | undefined) => void> = [];
  private closed = false;

  private prepared: Promise<void> | undefined;

  /**
   * `prepare`, when given, runs once before the first process starts (e.g. fetching the runtime's Node.js);
   * `makeSpawnSpec` may use what it found.
   */
  constructor(
    private readonly identity: FunctionIdentity,
    private readonly makeSpawnSpec: () => SpawnSpec,
    private readonly initTimeoutSeconds: number,
    private readonly prepare?: () => Promise<void>,
  ) {}

  get name(): string {
    return this.identity.name;
  }

  async invoke(event: unknown, options: InvokeOptions = {}): Promise<InvokeOutcome> {
    const start = new InvocationStart(options);
    const fail = (error: InvokeError, logs = ''): InvokeOutcome => start.outcome({ ok: false, error }, logs);
    if (this.prepare) await abortable((this.prepared ??= this.prepare()), options.signal);
    const acquiring = this.acquire();
    let env: ChildEnvironment | undefined;
    try {
      env = await abortable(acquiring, options.signal);
    } catch (error) {
      void acquiring.then((late) => late && this.release(late));
      throw error;
    }
    if (!env) return fail({ type: 'Runtime.ExitError', message: `the function ${this.identity.name} has been closed` });
    let held: ChildEnvironment | undefined = env;
    const release = (): void => {
      if (held) this.release(held);
      held = undefined;
    };
    try {
      const initError = await abortable(env.start(), options.signal);
      if (initError) {
        const logs = env.takeInitLogs();
        release();
        return fail(initError, logs);
      }
      const timeoutSeconds = this.identity.timeoutSeconds;
      const run = env.invoke(
        {
          requestId: start.awsRequestId,
          deadline: Date.now() + timeoutSeconds * 1000,
          arn: options.invokedFunctionArn ?? this.identity.arn,
          event: event ?? null,
        },
        timeoutSeconds,
      );
      run.then(release, release);
      const result = await abortable(run, options.signal);
      return start.outcome(result, result.logs);
    } catch (error) {
      if (!env.busy) release();
      throw error;
    }
  }

  /**
   * Starts one process and loads the handler before any invocation, as provisioned concurrency does; the
   * process stays warm for the first invocation. Resolves with the init error, if any.
   */
  async preload(): Promise<InvokeError | undefined> {
    if (this.prepare) await (this.prepared ??= this.prepare());
    const env = await this.acquire();
    if (!env) return { type: 'Runtime.ExitError', message: `the function ${this.identity.name} has been closed` };
    const error = await env.start();
    // The init logs stay with the process and reach its first invocation, as on Lambda.
    this.release(env);
    return error;
  }

  private acquire(): Promise<ChildEnvironment | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const warm = this.idle.pop();
    if (warm) return Promise.resolve(warm);
    if (this.environments.size < MAX_ENVIRONMENTS) return Promise.resolve(this.create());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private create(): ChildEnvironment {
    const env = new ChildEnvironment(this.makeSpawnSpec(), this.initTimeoutSeconds);
    env.onDeath = () => {
      this.environments.delete(env);
      const at = this.idle.indexOf(env);
      if (at !== -1) this.idle.splice(at, 1);
    };
    env.onRetire = env.onDeath;
    this.environments.add(env);
    return env;
  }

  private release(env: ChildEnvironment): void {
    const gone = env.dead || env.retiring;
    if (gone) this.environments.delete(env);
    const next = this.waiting.shift();
    if (next) {
      if (this.closed) return next(undefined);
      next(gone ? this.create() : env);
    } else if (!gone && !this.closed) {
      this.idle.push(env);
    }
  }

  /** Kills every process of this function; later invocations fail with `Runtime.ExitError`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve(undefined);
    this.idle.length = 0;
    await Promise.all([...this.environments].map((env) => env.kill()));
    this.environments.clear();
  }
}
