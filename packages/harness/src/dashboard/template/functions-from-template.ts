/**
 * The functions of a template (`AWS::Serverless::Function` with SAM's `Globals.Function`, and
 * `AWS::Lambda::Function`) as entries of a functions configuration, keyed by the ARN the stack would give them.
 * A function whose code or runtime cannot run on this machine is left out with a warning, and so is an
 * environment variable whose value exists only in AWS.
 */
import { existsSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { FUNCTION_NAME, isRecord, privateCodeFolder, type FunctionSpec } from '../functions/index.js';
import { unresolvable, type TemplatePath } from './errors.js';
import { FUNCTION_TYPES, NO_VALUE, type Resolver, type TemplateResource } from './intrinsics.js';

/** One function of a template: its configuration key (an ARN), its logical id, its settings and its code folder. */
export interface TemplateFunction {
  key: string;
  logicalId: string;
  spec: FunctionSpec;
  /** The folder of its code (`CodeUri`, `Code`, or where its inline code is written). */
  codeFolder: string;
}

const RUNNABLE_RUNTIME = /^(nodejs\d+\.x|python3\.\d+)$/;

/** A property of a function with where it was found: the resource, else SAM's `Globals.Function`. */
interface Found {
  value: unknown;
  path: TemplatePath;
}

class Properties {
  constructor(
    private readonly id: string,
    private readonly resource: TemplateResource,
    private readonly globals: Record<string, unknown>,
  ) {}

  get(name: string): Found | undefined {
    if (this.resource.properties[name] !== undefined)
      return { value: this.resource.properties[name], path: ['Resources', this.id, 'Properties', name] };
    if (this.globals[name] !== undefined) return { value: this.globals[name], path: ['Globals', 'Function', name] };
    return undefined;
  }

  /** The environment variables, SAM's global ones first, the function's own over them. */
  variables(): Map<string, Found> {
    const found = new Map<string, Found>();
    const add = (environment: unknown, path: TemplatePath): void => {
      if (environment === undefined) return;
      const variables = isRecord(environment) ? environment.Variables : undefined;
      if (!isRecord(variables)) return;
      for (const [name, value] of Object.entries(variables)) found.set(name, { value, path: [...path, 'Variables', name] });
    };
    add(this.globals.Environment, ['Globals', 'Function', 'Environment']);
    add(this.resource.properties.Environment, ['Resources', this.id, 'Properties', 'Environment']);
    return found;
  }
}

/**
 * Code written into the template (`Code.ZipFile`, SAM's `InlineCode`) as Lambda writes it, `index.js` or
 * `index.py`, in a folder of the harness's private folder; its packages resolve from the template's folder.
 */
function inlineCodeFolder(code: string, runtime: string, project: string): string {
  return privateCodeFolder(code, runtime.startsWith('python') ? 'index.py' : 'index.js', project);
}

/** Where a function's code is: a folder, or why the harness cannot run it. */
type CodeLocation = { folder: string; path: TemplatePath } | { skip: string };

function codeLocation(
  resolver: Resolver,
  id: string,
  resource: TemplateResource,
  props: Properties,
  runtime: string,
  baseDir: string,
): CodeLocation {
  const at = (name: string): TemplatePath => ['Resources', id, 'Properties', name];
  let local: Found | undefined;
  if (resource.type === 'AWS::Serverless::Function') {
    const inline = resolver.string(resource.properties.InlineCode, at('InlineCode'));
    if (inline !== undefined) return { folder: inlineCodeFolder(inline, runtime, baseDir), path: at('InlineCode') };
    local = props.get('CodeUri') ?? { value: '.', path: at('CodeUri') };
  } else {
    const code = resource.properties.Code;
    if (isRecord(code) && code.ZipFile !== undefined) {
      return {
        folder: inlineCodeFolder(resolver.string(code.ZipFile, [...at('Code'), 'ZipFile']) ?? '', runtime, baseDir),
        path: [...at('Code'), 'ZipFile'],
      };
    }
    if (code === undefined) return { skip: 'it has no Code' };
    local = { value: code, path: at('Code') };
  }
  const value = resolver.resolve(local.value, local.path);
  if (typeof value !== 'string')
    return { skip: `its code is in S3 (${JSON.stringify(value)}); the harness runs code from a folder on this machine` };
  const folder = resolve(baseDir, value);
  if (!existsSync(folder)) resolver.fail('invalid', local.path, `no folder ${folder} (the path is relative to the template's folder)`);
  if (!statSync(folder).isDirectory()) return { skip: `its code is the archive ${folder}; the harness runs code from a folder` };
  return { folder, path: local.path };
}

/**
 * The handler path for the functions configuration: the code folder joined with `Handler`, or — for a
 * function SAM builds with esbuild — the TypeScript entry point the handler's module is built from.
 */
function handlerPath(folder: string, handler: string, runtime: string, metadata: Record<string, unknown>): string {
  const properties = isRecord(metadata.BuildProperties) ? metadata.BuildProperties : {};
  const entries = Array.isArray(properties.EntryPoints) ? properties.EntryPoints.filter((e): e is string => typeof e === 'string') : [];
  if (runtime.startsWith('python') || metadata.BuildMethod !== 'esbuild' || entries.length === 0) return join(folder, handler);
  const slash = handler.lastIndexOf('/');
  const dot = handler.indexOf('.', slash + 1);
  if (dot < 0) return join(folder, handler);
  const modulePath = posix.normalize(handler.slice(0, dot));
  // esbuild writes each entry point relative to the entry points' common folder, without its extension.
  const stems = entries.map((e) => posix.normalize(e.replaceAll('\\', '/')).replace(/\.[^./]+$/, ''));
  const folders = stems.map((s) => posix.dirname(s).split('/'));
  const common: string[] = [];
  for (let i = 0; folders.every((f) => f[i] !== undefined && f[i] === folders[0]![i]); i++) common.push(folders[0]![i]!);
  const base = common.join('/');
  const stem = stems.find((s) => s === modulePath || posix.relative(base === '.' ? '' : base, s) === modulePath);
  return join(folder, stem === undefined ? handler : `${stem}${handler.slice(dot)}`);
}

function numberOf(resolver: Resolver, found: Found | undefined): number | undefined {
  if (!found) return undefined;
  const value = resolver.resolve(found.value, found.path);
  if (value === NO_VALUE || value === undefined) return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (Number.isNaN(n)) resolver.fail('invalid', found.path, `must be a number, got ${JSON.stringify(value)}`);
  return n;
}

/** One function, or undefined (with a warning) when it cannot run here. */
function templateFunction(
  resolver: Resolver,
  id: string,
  resource: TemplateResource,
  globals: Record<string, unknown>,
  baseDir: string,
): TemplateFunction | undefined {
  const warnings = resolver.warnings;
  const props = new Properties(id, resource, resource.type === 'AWS::Serverless::Function' ? globals : {});
  const leftOut = (why: string): undefined => void warnings.push(`${resolver.where(['Resources', id])}: the function is left out: ${why}`);
  const packageType = resolver.string(resource.properties.PackageType, ['Resources', id, 'Properties', 'PackageType']);
  const code = resource.properties.Code;
  if (packageType === 'Image' || resource.properties.ImageUri !== undefined || (isRecord(code) && code.ImageUri !== undefined)) {
    return leftOut('it is a container image, which the harness does not run');
  }
  const runtimeAt = props.get('Runtime');
  const runtime = runtimeAt ? resolver.string(runtimeAt.value, runtimeAt.path) : undefined;
  if (runtime === undefined) return leftOut('it has no Runtime');
  if (!RUNNABLE_RUNTIME.test(runtime)) return leftOut(`its Runtime ${runtime} is neither Node.js (nodejsNN.x) nor Python (python3.NN)`);
  const handlerAt = props.get('Handler');
  const handler = handlerAt ? resolver.string(handlerAt.value, handlerAt.path) : undefined;
  if (handler === undefined || handler === '') return leftOut('it has no Handler');
  const location = codeLocation(resolver, id, resource, props, runtime, baseDir);
  if ('skip' in location) return leftOut(location.skip);

  const name = resolver.nameOf(id, 'function');
  if (!FUNCTION_NAME.test(name))
    resolver.fail(
      'invalid',
      ['Resources', id, 'Properties', 'FunctionName'],
      `${JSON.stringify(name)} is not a function name (1 to 64 letters, digits, - and _)`,
    );

  const spec: FunctionSpec = {
    handler: handlerPath(location.folder, handler, runtime, resource.metadata),
    // Checked by the functions configuration as a functions file's runtime is.
    runtime: runtime as FunctionSpec['runtime'],
  };
  const timeout = numberOf(resolver, props.get('Timeout'));
  if (timeout !== undefined) spec.timeoutSeconds = timeout;
  const memory = numberOf(resolver, props.get('MemorySize'));
  if (memory !== undefined) spec.memoryMB = memory;
  const environment: Record<string, string> = {};
  for (const [variable, found] of props.variables()) {
    const notes: string[] = [];
    let value: unknown;
    try {
      value = resolver.resolve(found.value, found.path, notes);
    } catch (error) {
      warnings.push(`${unresolvable(error).message}; ${variable} is left out of the function's environment`);
      continue;
    }
    for (const note of notes) warnings.push(`${resolver.where(found.path)}: ${note}`);
    if (value === NO_VALUE || value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      resolver.fail('invalid', found.path, `an environment variable's value is a string, got ${JSON.stringify(value)}`);
    }
    environment[variable] = String(value);
  }
  if (Object.keys(environment).length > 0) spec.environment = environment;
  return { key: resolver.functionArn(id), logicalId: id, spec, codeFolder: location.folder };
}

/**
 * Every function of the template that runs here, in template order. Problems in what the harness needs
 * (a malformed intrinsic, a missing folder) throw a TemplateError; what exists only in AWS is left out, said in
 * `resolver.warnings`.
 */
export function functionsFromTemplate(resolver: Resolver, template: Record<string, unknown>, baseDir: string): TemplateFunction[] {
  const globals = isRecord(template.Globals) && isRecord(template.Globals.Function) ? template.Globals.Function : {};
  const functions = resolver.created(FUNCTION_TYPES, 'function', (id, resource) =>
    templateFunction(resolver, id, resource, globals, baseDir),
  );
  const byKey = new Map<string, string>();
  for (const fn of functions) {
    const other = byKey.get(fn.key);
    if (other) resolver.fail('invalid', ['Resources', fn.logicalId], `${other} and ${fn.logicalId} are both the function ${fn.key}`);
    byKey.set(fn.key, fn.logicalId);
  }
  return functions;
}
