/**
 * Runs a stack from its template: the functions and dashboards of an AWS SAM or CloudFormation template (YAML
 * or JSON), with intrinsic functions, parameters and pseudo parameters resolved as for a stack on this machine.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { FunctionsConfigError, isRecord, validateFunctionsConfig, type FunctionsConfig } from '../functions/index.js';
import { TemplateError, type TemplatePath, type TemplatePosition } from './errors.js';
import { dashboardsFromTemplate, type TemplateDashboard } from './dashboards-from-template.js';
import { functionsFromTemplate, type TemplateFunction } from './functions-from-template.js';
import { Resolver } from './intrinsics.js';
import { resolveParameters } from './parameters.js';
import { parseTemplateText } from './yaml-tags.js';

export { TemplateError } from './errors.js';
export { parseTemplateText } from './yaml-tags.js';

/** How a template is resolved: the stack it stands for. */
export interface TemplateOptions {
  /** Parameter values (name → value; a list as `a,b,c`), over the parameters' `Default`s. */
  parameters?: Readonly<Record<string, string>>;
  /** `AWS::Region` and the region of every function's ARN. Default `us-east-1`. */
  region?: string;
  /** `AWS::AccountId`. Default `123456789012`. */
  accountId?: string;
  /**
   * `AWS::StackName`. Default: the template's file name without its extension, or its folder's name when the
   * file is `template.yaml` (or `packaged`, `cfn`, `cloudformation`, `sam`), in letters, digits and `-`.
   */
  stackName?: string;
}

/**
 * A resolved template.
 *
 * @example
 * const t = await loadTemplate('template.yaml');
 * t.functions.functions; // { 'arn:aws:lambda:us-east-1:123456789012:function:trellis-service-status': { handler: '/…/handler.handler', … } }
 */
export interface LoadedTemplate {
  /** The template's absolute path. */
  file: string;
  stackName: string;
  /** A validated functions configuration: each function under its ARN, handler paths absolute. */
  functions: FunctionsConfig;
  /** The logical id of each function, by its key in `functions.functions`. */
  functionResources: Record<string, string>;
  /** The folder of each function's code (its `CodeUri` or `Code`), by its key in `functions.functions`. */
  codeFolders: Record<string, string>;
  dashboards: TemplateDashboard[];
  /** What was left out or stands in for something that exists only in AWS, one line each. */
  warnings: string[];
  /** The parameters the template declares. */
  parameterNames: string[];
}

export const DEFAULT_REGION = 'us-east-1';
export const DEFAULT_ACCOUNT_ID = '123456789012';
const REGION = /^[a-z]{2}(-[a-z0-9]+)+-\d+$/;
const ACCOUNT_ID = /^\d{12}$/;
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;
/** CloudFormation takes templates of up to 1 MB; a file far larger is not a template. */
const MAX_TEMPLATE_BYTES = 10 * 1024 * 1024;
const KNOWN_TRANSFORMS = new Set(['AWS::Serverless-2016-10-31', 'AWS::LanguageExtensions']);
const NESTED_STACKS = new Set(['AWS::CloudFormation::Stack', 'AWS::Serverless::Application']);

/** File names that say nothing of the stack (SAM's `template.yaml`, `sam package`'s output): the folder names it. */
const GENERIC_NAMES = new Set(['template', 'packaged', 'cfn', 'cloudformation', 'sam']);

/**
 * The default stack name for a template file: its name without the extension — or, for a generic name such as
 * `template.yaml`, its folder's name — with anything but letters, digits and `-` made `-`, starting with a
 * letter (`stack` when nothing is left).
 *
 * @example
 * defaultStackName('/work/examples/lambda-widget/template.yaml'); // 'lambda-widget'
 * defaultStackName('/work/build/cfn/customWidgetHelloWorld-js.yaml'); // 'customWidgetHelloWorld-js'
 */
export function defaultStackName(file: string): string {
  const stem = basename(file).replace(/\.(ya?ml|json|template)$/i, '');
  const chosen = GENERIC_NAMES.has(stem.toLowerCase()) ? basename(dirname(file)) : stem;
  const name = chosen
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 128);
  return name || 'stack';
}

function checkOptions(options: TemplateOptions, file: string): { region: string; accountId: string; stackName: string } {
  const region = options.region ?? DEFAULT_REGION;
  const accountId = options.accountId ?? DEFAULT_ACCOUNT_ID;
  const stackName = options.stackName ?? defaultStackName(file);
  if (!REGION.test(region))
    throw new TemplateError(`the region must look like "eu-west-1", got ${JSON.stringify(region)}`, 'invalid', file);
  if (!ACCOUNT_ID.test(accountId))
    throw new TemplateError(`the account id must be 12 digits, got ${JSON.stringify(accountId)}`, 'invalid', file);
  if (!STACK_NAME.test(stackName)) {
    throw new TemplateError(
      `the stack name must start with a letter and hold only letters, digits and - (at most 128), got ${JSON.stringify(stackName)}`,
      'invalid',
      file,
    );
  }
  return { region, accountId, stackName };
}

function resolveParsed(
  template: Record<string, unknown>,
  options: TemplateOptions,
  file: string,
  baseDir: string,
  locate: (path: TemplatePath) => TemplatePosition | undefined,
): LoadedTemplate {
  const stack = checkOptions(options, file);
  const { values, problems } = resolveParameters(template.Parameters, options.parameters ?? {});
  if (problems.length > 0) {
    const [first, ...others] = problems;
    const more = others.length > 0 ? ` (and ${others.length} more: ${others.map((p) => p.path.join('.')).join(', ')})` : '';
    throw new TemplateError(`${first!.message}${more}`, 'invalid', file, first!.path, locate(first!.path));
  }
  const resolver = new Resolver({ file, template, locate, stack, parameters: values });
  const transforms = Array.isArray(template.Transform) ? template.Transform : template.Transform === undefined ? [] : [template.Transform];
  for (const transform of transforms) {
    if (typeof transform !== 'string' || !KNOWN_TRANSFORMS.has(transform)) {
      resolver.warnings.push(
        `${resolver.where(['Transform'])}: the transform ${JSON.stringify(transform)} is not applied here; the template is read as it is`,
      );
    }
  }
  for (const [id, resource] of resolver.resources) {
    if (NESTED_STACKS.has(resource.type))
      resolver.warnings.push(
        `${resolver.where(['Resources', id])}: the nested stack is not loaded; give its template as a template of its own`,
      );
  }
  const found = functionsFromTemplate(resolver, template, baseDir);
  const dashboards = dashboardsFromTemplate(resolver);
  const byKey = <T>(pick: (fn: TemplateFunction) => T): Record<string, T> => Object.fromEntries(found.map((fn) => [fn.key, pick(fn)]));
  const raw = byKey((fn) => fn.spec);
  const functionResources = byKey((fn) => fn.logicalId);
  const codeFolders = byKey((fn) => fn.codeFolder);
  let functions: FunctionsConfig;
  try {
    functions = validateFunctionsConfig({ functions: raw }, baseDir);
  } catch (error) {
    if (!(error instanceof FunctionsConfigError)) throw error;
    const key = Object.keys(raw).find((k) => error.entry.startsWith(`functions[${JSON.stringify(k)}]`));
    const path = key ? ['Resources', functionResources[key]!] : [];
    throw new TemplateError(`as the harness runs it: ${error.message}`, 'invalid', file, path, locate(path));
  }
  return {
    file,
    stackName: stack.stackName,
    functions,
    functionResources,
    codeFolders,
    dashboards,
    warnings: resolver.warnings,
    parameterNames: isRecord(template.Parameters) ? Object.keys(template.Parameters) : [],
  };
}

/**
 * Resolves a template already in its JSON form (as CloudFormation's JSON, or the value of a parsed YAML
 * template). Relative code paths are relative to `baseDir`; `file` names the template in messages.
 *
 * @example
 * const t = resolveTemplate({ Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { Code: '.', Handler: 'index.handler', Runtime: 'nodejs22.x' } } } },
 *   { baseDir: '/srv/widget', stackName: 'widget' });
 */
export function resolveTemplate(template: unknown, options: TemplateOptions & { baseDir: string; file?: string }): LoadedTemplate {
  const file = options.file ?? join(options.baseDir, 'template');
  if (!isRecord(template))
    throw new TemplateError(
      'a template is a mapping at the top level (AWSTemplateFormatVersion, Parameters, Resources, …)',
      'invalid',
      file,
    );
  return asTemplateError(file, () => resolveParsed(template, options, file, resolve(options.baseDir), () => undefined));
}

/**
 * The result of `work`, which reads the template `file`; anything but a TemplateError it throws (a bug, a
 * limit of the engine such as the longest string) becomes one, so that a template never fails otherwise.
 */
function asTemplateError<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new TemplateError(`cannot be read (${what})`, 'invalid', file);
  }
}

/**
 * Reads an AWS SAM or CloudFormation template (YAML with the short forms `!Ref`, `!Sub`, `!GetAtt`, …, or JSON)
 * and returns its functions, keyed by ARN as the stack would name them, and its dashboards, with the
 * intrinsic functions resolved. Throws a TemplateError (with file, line and column) for a template that cannot
 * be read or resolved; what exists only in AWS (an SSM reference, another stack's export) is left out and
 * said in `warnings`.
 *
 * @example
 * const t = await loadTemplate('examples/lambda-widget/template.yaml', { region: 'eu-west-1', parameters: { DashboardName: 'ops' } });
 * const interpreter = createInterpreter({ functions: t.functions });
 * const dash = await interpreter.load(t.dashboards[0]!.text, { name: t.dashboards[0]!.name });
 */
export async function loadTemplate(file: string, options: TemplateOptions = {}): Promise<LoadedTemplate> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TemplateError(`cannot read the template: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, 'invalid', path);
  }
  if (Buffer.byteLength(text) > MAX_TEMPLATE_BYTES)
    throw new TemplateError(
      `the file is larger than ${MAX_TEMPLATE_BYTES / 1024 / 1024} MiB; CloudFormation templates are at most 1 MB`,
      'invalid',
      path,
    );
  return asTemplateError(path, () => {
    const parsed = parseTemplateText(text, path);
    return resolveParsed(parsed.value, options, path, dirname(path), parsed.locate);
  });
}
