/**
 * Resolves CloudFormation's intrinsic functions as a stack on this machine would see them: `Ref`, `Fn::GetAtt`
 * (a function's `Arn`), `Fn::Sub`, `Fn::Join`, `Fn::Select`, `Fn::Split`, `Fn::If` with `Conditions`,
 * `Fn::FindInMap`, `Fn::Base64`, `Fn::ToJsonString`, `Fn::Length`, and the pseudo parameters. Only what the
 * loader asks for is resolved, so a policy full of `!GetAtt Role.Arn` costs nothing. Every problem is a
 * TemplateError naming the property path and the intrinsic function; what resolving may make is bounded
 * (`resolve-budget.ts`), and anything else thrown while resolving a value becomes a TemplateError naming it.
 */
import { isRecord } from '../functions/index.js';
import { pathText, TemplateError, unresolvable, type TemplatePath, type TemplatePosition } from './errors.js';
import { conditionValue, MAX_DEPTH, type ConditionContext } from './conditions.js';
import { partitionOf, pseudoParameters, type ParameterValue, type StackSettings } from './parameters.js';
import { jsonLengthAtLeast, MAX_STRING_LENGTH, ResolveBudget, show } from './resolve-budget.js';
import { parseSub } from './sub.js';

/** What `Ref: AWS::NoValue` gives: the property (or list item) holding it is left out. */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/** The resource types that run code the harness can run. */
export const FUNCTION_TYPES: ReadonlySet<string> = new Set(['AWS::Serverless::Function', 'AWS::Lambda::Function']);
export const DASHBOARD_TYPE = 'AWS::CloudWatch::Dashboard';

/** The property whose value `Ref` returns for a resource type, when the template gives it. */
const NAME_PROPERTY: Readonly<Record<string, string>> = {
  'AWS::Serverless::Function': 'FunctionName',
  'AWS::Lambda::Function': 'FunctionName',
  [DASHBOARD_TYPE]: 'DashboardName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::Serverless::SimpleTable': 'TableName',
  'AWS::SSM::Parameter': 'Name',
  'AWS::IAM::Role': 'RoleName',
};

/** Names and conditions resolved within one another, and values nested through all of them. */
const MAX_CHAIN = 32;
const MAX_LEVEL = 4 * MAX_DEPTH;

const SUPPORTED =
  'Ref, Fn::GetAtt, Fn::Sub, Fn::Join, Fn::Select, Fn::Split, Fn::If, Fn::FindInMap, Fn::Base64, Fn::ToJsonString and Fn::Length';
const CONDITION_FUNCTIONS = new Set(['Fn::Equals', 'Fn::Not', 'Fn::And', 'Fn::Or']);

/** One resource of the template. */
export interface TemplateResource {
  type: string;
  properties: Record<string, unknown>;
  condition?: string;
  metadata: Record<string, unknown>;
}

export interface ResolverInput {
  file: string;
  template: Record<string, unknown>;
  readonly locate: (path: TemplatePath) => TemplatePosition | undefined;
  stack: StackSettings;
  parameters: Record<string, ParameterValue>;
}

const isIntrinsicKey = (key: string): boolean => key === 'Ref' || key.startsWith('Fn::');

/**
 * The intrinsic functions of one template, resolved for one stack.
 *
 * @example
 * const resolver = new Resolver({ file, template, locate, stack, parameters });
 * resolver.string({ 'Fn::Sub': 'arn:${AWS::Partition}:s3:::logs' }, ['Outputs', 'Bucket', 'Value']); // 'arn:aws:s3:::logs'
 */
export class Resolver {
  readonly resources = new Map<string, TemplateResource>();
  /** What was left out or stands in for something that exists only in AWS, one line each. */
  readonly warnings: string[] = [];
  readonly stack: StackSettings;
  private readonly pseudo: Record<string, string | string[]>;
  private readonly conditions = new Map<string, boolean>();
  /** Names and conditions being resolved, to report a cycle instead of overflowing the stack. */
  private readonly pending = new Set<string>();
  /** Values being resolved, through every name and condition they lead to (a bound on the stack). */
  private level = 0;
  private readonly budget = new ResolveBudget();

  constructor(private readonly input: ResolverInput) {
    this.stack = input.stack;
    this.pseudo = pseudoParameters(input.stack);
    const resources = input.template.Resources;
    if (!isRecord(resources) || Object.keys(resources).length === 0) {
      this.fail(
        'invalid',
        resources === undefined ? [] : ['Resources'],
        'a template needs Resources: a mapping of logical ids to resources',
      );
    }
    for (const [id, resource] of Object.entries(resources)) {
      const at = ['Resources', id];
      if (!isRecord(resource) || typeof resource.Type !== 'string')
        this.fail('invalid', at, 'a resource is a mapping with a Type, such as AWS::Serverless::Function');
      if (resource.Properties !== undefined && !isRecord(resource.Properties))
        this.fail('invalid', [...at, 'Properties'], 'Properties must be a mapping');
      if (resource.Condition !== undefined && typeof resource.Condition !== 'string')
        this.fail('invalid', [...at, 'Condition'], 'Condition names a condition of Conditions');
      this.resources.set(id, {
        type: resource.Type,
        properties: resource.Properties ?? {},
        ...(resource.Condition !== undefined ? { condition: resource.Condition } : {}),
        metadata: isRecord(resource.Metadata) ? resource.Metadata : {},
      });
    }
  }

  /** Throws a TemplateError for `path`, with its line and column. */
  fail(kind: TemplateError['kind'], path: TemplatePath, problem: string): never {
    throw new TemplateError(problem, kind, this.input.file, path, this.input.locate(path));
  }

  /** `file:line:column: path` for a warning about the value at `path`. */
  where(path: TemplatePath): string {
    const position = this.input.locate(path);
    return `${this.input.file}${position ? `:${position.line}:${position.column}` : ''}: ${pathText(path)}`;
  }

  /**
   * `value` with every intrinsic function resolved (NO_VALUE for `AWS::NoValue`). `notes` collects what stands
   * in for something that exists only in AWS (a generated resource name).
   */
  resolve(value: unknown, path: TemplatePath, notes?: string[]): unknown {
    return this.walk(value, path, 0, notes);
  }

  /** A resolved scalar as a string; undefined when absent (or `AWS::NoValue`). */
  string(value: unknown, path: TemplatePath, notes?: string[]): string | undefined {
    const resolved = this.walk(value, path, 0, notes);
    if (resolved === undefined || resolved === NO_VALUE) return undefined;
    if (typeof resolved === 'string') return resolved;
    if (typeof resolved === 'number' || typeof resolved === 'boolean') return String(resolved);
    return this.fail('invalid', path, `must be a string, got ${show(resolved)}`);
  }

  /** Whether a resource is created: it has no Condition, or its condition is true. */
  included(id: string): boolean {
    const resource = this.resources.get(id);
    return resource?.condition === undefined || this.condition(resource.condition, ['Resources', id, 'Condition']);
  }

  /**
   * Each created resource of `types` as `make` makes it (undefined: none), in template order. A resource whose
   * Condition is false, or that needs what exists only in AWS, is left out with a warning naming it the `what`.
   */
  created<T>(types: ReadonlySet<string>, what: string, make: (id: string, resource: TemplateResource) => T | undefined): T[] {
    const made: T[] = [];
    for (const [id, resource] of this.resources) {
      if (!types.has(resource.type)) continue;
      if (!this.included(id)) {
        this.warnings.push(`${this.where(['Resources', id])}: not created here (its Condition ${resource.condition} is false)`);
        continue;
      }
      try {
        const value = make(id, resource);
        if (value !== undefined) made.push(value);
      } catch (error) {
        this.warnings.push(`${unresolvable(error).message}; the ${what} ${id} is left out`);
      }
    }
    return made;
  }

  /** {@link physicalName}, or (with a warning) the generated name when the name property exists only in AWS. */
  nameOf(id: string, what: string): string {
    try {
      return this.physicalName(id);
    } catch (error) {
      const name = this.generatedName(id);
      this.warnings.push(`${unresolvable(error).message}; the ${what} is named ${name} instead`);
      return name;
    }
  }

  /** `<StackName>-<LogicalId>`, cut to a function name's 64 characters for a function. */
  private generatedName(id: string): string {
    const generated = `${this.stack.stackName}-${id}`;
    return FUNCTION_TYPES.has(this.resources.get(id)!.type) ? generated.slice(0, 64) : generated;
  }

  /** What `Ref` gives a resource: its name property when the template sets one, else `<StackName>-<LogicalId>`. */
  physicalName(id: string, notes?: string[]): string {
    const resource = this.resources.get(id)!;
    const property = NAME_PROPERTY[resource.type];
    if (property && resource.properties[property] !== undefined) {
      const name = this.guarded(`name of ${id}`, ['Resources', id, 'Properties', property], () =>
        this.string(resource.properties[property], ['Resources', id, 'Properties', property], notes),
      );
      if (name !== undefined) return name;
    }
    const generated = this.generatedName(id);
    if (FUNCTION_TYPES.has(resource.type)) return generated;
    if (resource.type !== DASHBOARD_TYPE) {
      notes?.push(
        `Ref ${id} (${resource.type}) stands in as "${generated}": nothing by that name exists unless you create it (in an emulator, say)`,
      );
    }
    return generated;
  }

  /** The ARN of a function resource. */
  functionArn(id: string, notes?: string[]): string {
    const { partition } = partitionOf(this.stack.region);
    return `arn:${partition}:lambda:${this.stack.region}:${this.stack.accountId}:function:${this.physicalName(id, notes)}`;
  }

  /** Evaluates a condition of `Conditions`. */
  condition(name: string, path: TemplatePath): boolean {
    const known = this.conditions.get(name);
    if (known !== undefined) return known;
    const declared = isRecord(this.input.template.Conditions) ? this.input.template.Conditions : {};
    if (!Object.hasOwn(declared, name)) this.fail('invalid', path, `no condition named ${JSON.stringify(name)} in Conditions`);
    const value = this.guarded(`condition ${name}`, path, () =>
      conditionValue(this.conditionContext, declared[name], ['Conditions', name], 0),
    );
    this.conditions.set(name, value);
    return value;
  }

  /** What condition functions need of the resolver. */
  private readonly conditionContext: ConditionContext = {
    value: (expr, path, depth) => this.walk(expr, path, depth, undefined),
    condition: (name, path) => this.condition(name, path),
    fail: (kind, path, problem) => this.fail(kind, path, problem),
  };

  private guarded<T>(what: string, path: TemplatePath, work: () => T): T {
    if (this.pending.has(what)) this.fail('invalid', path, `the ${what} depends on itself`);
    if (this.pending.size >= MAX_CHAIN) this.fail('invalid', path, `names and conditions refer to each other more than ${MAX_CHAIN} deep`);
    this.pending.add(what);
    try {
      return work();
    } catch (error) {
      return this.unexpected(error, path);
    } finally {
      this.pending.delete(what);
    }
  }

  /** A TemplateError as it is; anything else thrown while resolving `path` (a bug, a limit of the engine) as one. */
  private unexpected(error: unknown, path: TemplatePath): never {
    if (error instanceof TemplateError) throw error;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return this.fail('invalid', path, `cannot be resolved (${what})`);
  }

  private walk(value: unknown, path: TemplatePath, depth: number, notes: string[] | undefined): unknown {
    if (depth > MAX_DEPTH || this.level > MAX_LEVEL) this.fail('invalid', path, `nested more than ${MAX_DEPTH} levels deep`);
    this.visit(1, path);
    this.level++;
    try {
      return this.walkOne(value, path, depth, notes);
    } catch (error) {
      return this.unexpected(error, path);
    } finally {
      this.level--;
    }
  }

  /** Counts `count` values visited (or made), failing past the bound. */
  private visit(count: number, path: TemplatePath): void {
    const problem = this.budget.visit(count);
    if (problem) this.fail('invalid', path, problem);
  }

  /** Counts a string `fn` is about to make, failing past the bounds. */
  private make(length: number, path: TemplatePath, fn: string, atLeast = false): void {
    const problem = this.budget.make(length, fn, atLeast);
    if (problem) this.fail('invalid', path, problem);
  }

  private walkOne(value: unknown, path: TemplatePath, depth: number, notes: string[] | undefined): unknown {
    if (typeof value === 'string') return this.checked(value, path);
    if (Array.isArray(value)) {
      return value.map((v, i) => this.walk(v, [...path, i], depth + 1, notes)).filter((v) => v !== NO_VALUE);
    }
    if (!isRecord(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && isIntrinsicKey(keys[0]!))
      return this.intrinsic(keys[0]!, value[keys[0]!], [...path, keys[0]!], depth + 1, notes);
    const entries = keys.map((k) => [k, this.walk(value[k], [...path, k], depth + 1, notes)] as const).filter(([, v]) => v !== NO_VALUE);
    return Object.fromEntries(entries);
  }

  /** A string as it is, unless it holds a dynamic reference, which only CloudFormation can read. */
  private checked(text: string, path: TemplatePath): string {
    const reference = /\{\{resolve:([a-z-]+):/.exec(text);
    if (reference) {
      const service = reference[1] === 'secretsmanager' ? 'AWS Secrets Manager' : 'AWS Systems Manager Parameter Store';
      this.fail(
        'unresolvable',
        path,
        `the dynamic reference {{resolve:${reference[1]}:…}} is read from ${service} when the stack is deployed; it has no value on this machine`,
      );
    }
    return text;
  }

  private intrinsic(name: string, args: unknown, path: TemplatePath, depth: number, notes: string[] | undefined): unknown {
    const pair = (what: string): [unknown, unknown] => {
      if (!Array.isArray(args) || args.length !== 2) this.fail('invalid', path, `${name} takes a list of ${what}, got ${show(args)}`);
      return [args[0], args[1]];
    };
    const sub = (v: unknown, i: number | string): unknown => this.walk(v, [...path, i], depth + 1, notes);
    switch (name) {
      case 'Ref':
        if (typeof args !== 'string' || args === '')
          this.fail('invalid', path, `Ref takes the name of a parameter or resource, got ${show(args)}`);
        return this.ref(args, path, notes);
      case 'Fn::GetAtt': {
        let id: unknown = Array.isArray(args)
          ? args[0]
          : typeof args === 'string'
            ? args.slice(0, Math.max(0, args.indexOf('.')))
            : undefined;
        let attribute: unknown = Array.isArray(args) ? args[1] : typeof args === 'string' ? args.slice(args.indexOf('.') + 1) : undefined;
        if (Array.isArray(args) && args.length !== 2) id = undefined;
        if (isRecord(attribute)) attribute = sub(attribute, 1);
        if (typeof id !== 'string' || id === '' || typeof attribute !== 'string' || attribute === '') {
          this.fail('invalid', path, `Fn::GetAtt takes [LogicalId, Attribute] (or "LogicalId.Attribute" with !GetAtt), got ${show(args)}`);
        }
        return this.getAtt(id, attribute, path, notes);
      }
      case 'Fn::Sub':
        return this.sub(args, path, depth, notes);
      case 'Fn::Join': {
        const [delimiter, items] = pair('[delimiter, [values]]');
        if (typeof delimiter !== 'string')
          this.fail('invalid', [...path, 0], `Fn::Join's delimiter must be a string, got ${show(delimiter)}`);
        const strings = this.strings(sub(items, 1), [...path, 1], 'Fn::Join');
        const length = strings.reduce((sum, s) => sum + s.length, 0) + delimiter.length * Math.max(0, strings.length - 1);
        this.make(length, path, 'Fn::Join');
        return strings.join(delimiter);
      }
      case 'Fn::Select': {
        const [index, items] = pair('[index, [values]]');
        const at = sub(index, 0);
        const n = typeof at === 'number' ? at : typeof at === 'string' && /^\d+$/.test(at) ? Number(at) : NaN;
        const list = sub(items, 1);
        if (!Array.isArray(list)) this.fail('invalid', [...path, 1], `Fn::Select picks from a list, got ${show(list)}`);
        if (!Number.isInteger(n) || n < 0 || n >= list.length)
          this.fail('invalid', [...path, 0], `Fn::Select's index ${show(at)} is not within the list of ${list.length}`);
        return list[n];
      }
      case 'Fn::Split': {
        const [delimiter, source] = pair('[delimiter, string]');
        if (typeof delimiter !== 'string' || delimiter === '')
          this.fail('invalid', [...path, 0], `Fn::Split's delimiter must be a non-empty string, got ${show(delimiter)}`);
        const text = sub(source, 1);
        if (typeof text !== 'string') this.fail('invalid', [...path, 1], `Fn::Split splits a string, got ${show(text)}`);
        const parts = text.split(delimiter);
        this.visit(parts.length, path);
        return parts;
      }
      case 'Fn::If': {
        if (!Array.isArray(args) || args.length !== 3 || typeof args[0] !== 'string') {
          this.fail('invalid', path, `Fn::If takes [ConditionName, value if true, value if false], got ${show(args)}`);
        }
        return this.condition(args[0], [...path, 0]) ? sub(args[1], 1) : sub(args[2], 2);
      }
      case 'Fn::FindInMap':
        return this.findInMap(args, path, depth, notes);
      case 'Fn::Base64': {
        const text = sub(args, 0);
        if (typeof text !== 'string') this.fail('invalid', path, `Fn::Base64 encodes a string, got ${show(text)}`);
        this.make(Math.ceil(Buffer.byteLength(text, 'utf8') / 3) * 4, path, 'Fn::Base64');
        return Buffer.from(text, 'utf8').toString('base64');
      }
      case 'Fn::ToJsonString': {
        const value = this.walk(args, path, depth + 1, notes);
        const length = jsonLengthAtLeast(value, MAX_STRING_LENGTH);
        this.make(Math.min(length, MAX_STRING_LENGTH + 1), path, 'Fn::ToJsonString', length > MAX_STRING_LENGTH);
        return JSON.stringify(value);
      }
      case 'Fn::Length': {
        const list = this.walk(args, path, depth + 1, notes);
        if (!Array.isArray(list)) this.fail('invalid', path, `Fn::Length counts a list, got ${show(list)}`);
        return list.length;
      }
      case 'Fn::ImportValue':
        return this.fail('unresolvable', path, "Fn::ImportValue reads another stack's export, which does not exist on this machine");
      case 'Fn::GetAZs':
        return this.fail('unresolvable', path, "Fn::GetAZs lists an AWS account's Availability Zones, which this machine does not have");
      default:
        if (CONDITION_FUNCTIONS.has(name))
          this.fail('invalid', path, `${name} is a condition function: it belongs in Conditions, and Fn::If names a condition`);
        if (name === 'Fn::Cidr' || name === 'Fn::Transform')
          this.fail('invalid', path, `${name} is not supported by the harness; it resolves ${SUPPORTED}`);
        return this.fail('invalid', path, `${name} is not an intrinsic function the harness knows; it resolves ${SUPPORTED}`);
    }
  }

  private strings(list: unknown, path: TemplatePath, fn: string): string[] {
    if (!Array.isArray(list)) this.fail('invalid', path, `${fn} takes a list, got ${show(list)}`);
    return list.map((item, i) => {
      if (typeof item === 'string') return item;
      if (typeof item === 'number' || typeof item === 'boolean') return String(item);
      return this.fail('invalid', [...path, i], `${fn} takes strings, got ${show(item)}`);
    });
  }

  private ref(name: string, path: TemplatePath, notes: string[] | undefined): unknown {
    if (name === 'AWS::NoValue') return NO_VALUE;
    if (Object.hasOwn(this.pseudo, name)) return this.pseudo[name];
    if (name.startsWith('AWS::'))
      this.fail('invalid', path, `Ref ${name}: no such pseudo parameter (known: AWS::NoValue, ${Object.keys(this.pseudo).join(', ')})`);
    if (Object.hasOwn(this.input.parameters, name)) {
      const parameter = this.input.parameters[name]!;
      return 'value' in parameter ? parameter.value : this.fail('unresolvable', path, parameter.unresolvable);
    }
    if (this.resources.has(name)) return this.physicalName(name, notes);
    return this.fail('invalid', path, `Ref ${name}: the template has no parameter or resource named ${JSON.stringify(name)}`);
  }

  private getAtt(id: string, attribute: string, path: TemplatePath, notes: string[] | undefined): string {
    const resource = this.resources.get(id);
    if (!resource) this.fail('invalid', path, `Fn::GetAtt ${id}.${attribute}: the template has no resource named ${JSON.stringify(id)}`);
    if (FUNCTION_TYPES.has(resource.type) && attribute === 'Arn') return this.functionArn(id, notes);
    return this.fail(
      'unresolvable',
      path,
      `Fn::GetAtt ${id}.${attribute}: ${resource.type} has no local ${attribute} (the harness knows the Arn of functions)`,
    );
  }

  private sub(args: unknown, path: TemplatePath, depth: number, notes: string[] | undefined): string {
    const [text, variables] =
      typeof args === 'string'
        ? [args, {}]
        : Array.isArray(args)
          ? [args[0], args.length === 2 ? args[1] : args.length === 1 ? {} : undefined]
          : [];
    if (typeof text !== 'string' || !isRecord(variables)) {
      this.fail('invalid', path, `Fn::Sub takes a string, or [string, { Name: value }], got ${show(args)}`);
    }
    let parts;
    try {
      parts = parseSub(text);
    } catch (error) {
      return this.fail('invalid', path, `Fn::Sub: ${(error as Error).message}`);
    }
    let out = '';
    for (const part of parts) {
      if ('text' in part) {
        out += part.text;
        continue;
      }
      const name = part.variable;
      let value: unknown;
      if (Object.hasOwn(variables, name)) value = this.walk(variables[name], [...path, 1, name], depth + 1, notes);
      else if (name.includes('.') && !name.startsWith('AWS::'))
        value = this.getAtt(name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1), path, notes);
      else value = this.ref(name, path, notes);
      if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
      if (typeof value !== 'string')
        this.fail(
          'invalid',
          path,
          `Fn::Sub: \${${name}} is ${show(value)}, not a string${Array.isArray(value) ? ' (join a list with Fn::Join)' : ''}`,
        );
      if (out.length + value.length > MAX_STRING_LENGTH) this.make(out.length + value.length, path, 'Fn::Sub');
      out += value;
    }
    this.make(out.length, path, 'Fn::Sub');
    return this.checked(out, path);
  }

  private findInMap(args: unknown, path: TemplatePath, depth: number, notes: string[] | undefined): unknown {
    if (!Array.isArray(args) || args.length !== 3)
      this.fail('invalid', path, `Fn::FindInMap takes [MapName, TopLevelKey, SecondLevelKey], got ${show(args)}`);
    const keys = args.map((k, i) => {
      const key = this.walk(k, [...path, i], depth + 1, notes);
      if (typeof key !== 'string' && typeof key !== 'number')
        this.fail('invalid', [...path, i], `Fn::FindInMap's keys are strings, got ${show(key)}`);
      return String(key);
    });
    let node: unknown = this.input.template.Mappings;
    for (const key of keys) {
      node = isRecord(node) && Object.hasOwn(node, key) ? node[key] : undefined;
      if (node === undefined) this.fail('invalid', path, `Fn::FindInMap: Mappings has no ${keys.join('.')}`);
    }
    return this.walk(node, ['Mappings', ...keys], depth + 1, notes);
  }
}
