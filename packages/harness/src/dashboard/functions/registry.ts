/**
 * Which code answers which endpoint. Targets are made lazily (a child process starts on the first call) and
 * matched by full ARN or by function name, the qualifier ignored: an exact (unqualified) ARN first, then a
 * function configured by name, then one configured by an ARN with that name (so a dashboard copied from
 * another account or region still finds its functions). The top-level `invokeUrl` serves the rest.
 */
import { randomUUID } from 'node:crypto';
import { parseEndpoint } from './endpoint.js';
import { InProcessTarget } from './in-process-target.js';
import { InvokeApiTarget } from './invoke-api-target.js';
import { identityFor } from './lambda-context.js';
import { sdkNodeModules } from './aws-sdk-path.js';
import { awsSettings, nodeModuleTarget, pythonModuleTarget, setupFiles, type ModuleDefaults } from './module-targets.js';
import { runtimeLanguage } from './runtimes.js';
import { ChildPoolTarget } from './child-pool-target.js';
import type { FunctionInfo, FunctionSpec, FunctionTarget, FunctionsConfig, InvokeError, InvokeOptions, InvokeOutcome } from './types.js';

/**
 * The configured functions of one harness.
 *
 * @example
 * const registry = new FunctionRegistry({ functions: { hello: { handler: (e) => `<p>${e.name}</p>` } } });
 * const outcome = await registry.invoke('arn:aws:lambda:us-east-1:123456789012:function:hello:prod', { name: 'Ada' });
 * await registry.close();
 */
export class FunctionRegistry {
  private readonly targets = new Map<string, FunctionTarget>();
  private readonly arns = new WeakMap<FunctionTarget, string>();
  private readonly byArn = new Map<string, string>();
  private readonly byName = new Map<string, string>();
  private readonly byArnName = new Map<string, string>();
  private readonly baseDir: string;
  private readonly defaults: ModuleDefaults;
  private closed = false;

  constructor(private readonly config: FunctionsConfig) {
    this.baseDir = config.baseDir ?? process.cwd();
    this.defaults = {};
    if (config.awsCredentials) this.defaults.awsCredentials = config.awsCredentials;
    if (config.awsEndpoint) this.defaults.awsEndpoint = config.awsEndpoint;
    if (config.passEnvironment) this.defaults.passEnvironment = config.passEnvironment;
    if (config.awsSdkPath) {
      const found = sdkNodeModules(config.awsSdkPath);
      if ('dir' in found) this.defaults.awsSdkNodeModules = found.dir;
    }
    for (const key of Object.keys(config.functions)) {
      const parsed = parseEndpoint(key);
      if (parsed?.unqualifiedArn) {
        this.byArn.set(parsed.unqualifiedArn, key);
        if (!this.byArnName.has(parsed.name)) this.byArnName.set(parsed.name, key);
      } else {
        this.byName.set(parsed?.name ?? key, key);
      }
    }
  }

  /**
   * How each configured function runs and what of AWS it reaches: which got real credentials, which an
   * endpoint, which setup modules.
   *
   * @example
   * registry.describe().filter((f) => f.awsCredentials !== 'none').map((f) => f.name);
   */
  describe(): FunctionInfo[] {
    return Object.entries(this.config.functions).map(([name, spec]) => {
      if (typeof spec.handler === 'function')
        return { name, runtime: 'in-process', lambdaRuntime: null, awsCredentials: 'host', awsEndpoint: null, setup: [] };
      if (typeof spec.handler !== 'string')
        return { name, runtime: 'invoke-api', lambdaRuntime: null, awsCredentials: null, awsEndpoint: null, setup: [] };
      const aws = awsSettings(spec, this.defaults);
      return {
        name,
        runtime: runtimeLanguage(spec.runtime),
        lambdaRuntime: spec.runtime === 'nodejs' || spec.runtime === 'python' ? null : (spec.runtime ?? null),
        awsCredentials: aws.awsCredentials ?? 'none',
        awsEndpoint: aws.awsEndpoint?.url ?? null,
        setup: setupFiles(spec, this.baseDir),
      };
    });
  }

  /** The configured keys (names and ARNs), in configuration order. */
  names(): string[] {
    return Object.keys(this.config.functions);
  }

  /**
   * The target for an endpoint, or a `FunctionNotFound` error naming it and listing the configured names.
   *
   * @example
   * const target = registry.resolve('hello');
   * if ('type' in target) console.error(target.message);
   */
  resolve(endpoint: string): FunctionTarget | InvokeError {
    const parsed = typeof endpoint === 'string' ? parseEndpoint(endpoint) : undefined;
    const key = this.keyFor(endpoint);
    if (key) return this.target(key, key, this.config.functions[key]!);
    if (parsed && this.config.invokeUrl) {
      const cacheKey = `invokeUrl:${parsed.name}`;
      return this.target(cacheKey, parsed.unqualifiedArn ?? parsed.name, { invokeUrl: this.config.invokeUrl });
    }
    const names = this.names();
    const known = names.length ? `configured functions: ${names.join(', ')}` : 'no functions are configured';
    return {
      type: 'FunctionNotFound',
      message: `No function is configured for endpoint ${JSON.stringify(endpoint)} (${known}); add it to the functions file by name or full ARN`,
    };
  }

  /**
   * The configured key (name or ARN) that answers an endpoint, or undefined when none does (the top-level
   * `invokeUrl`, if any, answers those).
   *
   * @example
   * registry.keyFor('arn:aws:lambda:us-east-1:123456789012:function:hello:prod'); // 'hello'
   */
  keyFor(endpoint: string): string | undefined {
    const parsed = typeof endpoint === 'string' ? parseEndpoint(endpoint) : undefined;
    if (!parsed) return undefined;
    return (
      (parsed.unqualifiedArn && this.byArn.get(parsed.unqualifiedArn)) ||
      this.byName.get(parsed.name) ||
      this.byArnName.get(parsed.name) ||
      undefined
    );
  }

  /**
   * Ends the execution environments of the named functions (every function when no names are given): their
   * processes stop, and the next invocation starts a fresh one that loads the code again, as after a deploy.
   * Invocations still running in them end with `Runtime.ExitError`. Returns the keys that had environments.
   *
   * @example
   * await registry.restart(['greeter']); // after widgets/greeter.ts changed
   */
  async restart(keys?: readonly string[]): Promise<string[]> {
    const restarted = [...this.targets.keys()].filter((key) => !keys || keys.includes(key));
    const stopping = restarted.map((key) => this.targets.get(key)!);
    for (const key of restarted) this.targets.delete(key);
    await Promise.all(stopping.map((t) => t.close()));
    return restarted;
  }

  private target(cacheKey: string, key: string, spec: FunctionSpec): FunctionTarget {
    let target = this.targets.get(cacheKey);
    if (!target) {
      target = this.create(key, spec);
      this.targets.set(cacheKey, target);
      this.arns.set(target, identityFor(key).arn);
    }
    return target;
  }

  private create(key: string, spec: FunctionSpec): FunctionTarget {
    if (typeof spec.handler === 'function') return new InProcessTarget(key, spec.handler, spec.timeoutSeconds, spec.memoryMB);
    if (typeof spec.handler === 'string') {
      const moduleSpec = { ...spec, handler: spec.handler };
      return runtimeLanguage(spec.runtime) === 'python'
        ? pythonModuleTarget(key, moduleSpec, this.baseDir, this.defaults)
        : nodeModuleTarget(key, moduleSpec, this.baseDir, this.defaults);
    }
    return new InvokeApiTarget(identityFor(key, spec.timeoutSeconds, spec.memoryMB), spec.invokeUrl ?? this.config.invokeUrl ?? '');
  }

  /**
   * Invokes the function for an endpoint. Function failures (errors, timeouts, crashes, unknown endpoints,
   * unreachable targets) are outcomes, never rejections; only an aborted `signal` rejects.
   *
   * @example
   * const { ok, value, error, logs } = await registry.invoke('hello', { name: 'Ada' });
   */
  async invoke(endpoint: string, event: unknown, options: InvokeOptions = {}): Promise<InvokeOutcome> {
    options.signal?.throwIfAborted();
    const fail = (error: InvokeError): InvokeOutcome => ({ ok: false, error, logs: '', durationMs: 0, awsRequestId: randomUUID() });
    if (this.closed) return fail({ type: 'Runtime.ExitError', message: 'the function registry has been closed' });
    const target = this.resolve(endpoint);
    if (!('invoke' in target)) return fail(target);
    // The ARN the function sees is the one it was called by, qualifier included, as in Lambda.
    const parsed = parseEndpoint(endpoint);
    const base = parsed?.unqualifiedArn ?? this.arns.get(target);
    const called = parsed?.unqualifiedArn ? endpoint : parsed?.qualifier && base ? `${base}:${parsed.qualifier}` : undefined;
    const invokedFunctionArn = options.invokedFunctionArn ?? called;
    return target.invoke(event, { ...options, ...(invokedFunctionArn ? { invokedFunctionArn } : {}) });
  }

  /**
   * Starts one process of every module function (a handler file, Node.js or Python) and loads its handler, as
   * provisioned concurrency does, so that a missing module or export, a syntax error or a refused handler
   * signature shows at start instead of at the first widget; the processes stay warm for their first call.
   * Resolves with each function's init error (`undefined` when it loaded), in configuration order; functions
   * are loaded `concurrency` at a time.
   *
   * @example
   * for (const { name, error } of await registry.preload()) if (error) console.error(`${name}: ${error.type}: ${error.message}`);
   */
  async preload(concurrency = 2): Promise<Array<{ name: string; error: InvokeError | undefined }>> {
    const names = this.names().filter((key) => typeof this.config.functions[key]!.handler === 'string');
    const results: Array<{ name: string; error: InvokeError | undefined }> = names.map((name) => ({ name, error: undefined }));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < names.length && !this.closed) {
        const at = next++;
        const target = this.target(names[at]!, names[at]!, this.config.functions[names[at]!]!);
        if (!(target instanceof ChildPoolTarget)) continue;
        const error = await target.preload();
        // A process ended by close() did not fail to load.
        if (!this.closed) results[at]!.error = error;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    return results;
  }

  /** Stops every function: kills every child process. */
  async close(): Promise<void> {
    this.closed = true;
    await this.restart();
  }
}
