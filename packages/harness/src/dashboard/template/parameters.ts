/**
 * The values `Ref` gives a template's parameters and the pseudo parameters (`AWS::Region`, `AWS::AccountId`,
 * …): a value given for the run wins over the parameter's `Default`; a parameter with neither is an error, as
 * CloudFormation refuses to create such a stack. `AllowedValues` and `AllowedPattern` are checked.
 */
import { isRecord } from '../functions/index.js';
import type { TemplatePath } from './errors.js';

/** What `Ref` gives a parameter: a string, a list (the `List<…>` and `CommaDelimitedList` types), or why it has none here. */
export type ParameterValue = { value: string | string[] } | { unresolvable: string };

/** The stack a template is resolved as. */
export interface StackSettings {
  region: string;
  accountId: string;
  stackName: string;
}

/** A problem with a parameter: its place and what is wrong. */
export interface ParameterProblem {
  path: TemplatePath;
  message: string;
}

const scalarText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** The partition and URL suffix of a region: `aws-cn` for `cn-*`, `aws-us-gov` for `us-gov-*`, else `aws`. */
export function partitionOf(region: string): { partition: string; urlSuffix: string } {
  if (region.startsWith('cn-')) return { partition: 'aws-cn', urlSuffix: 'amazonaws.com.cn' };
  if (region.startsWith('us-gov-')) return { partition: 'aws-us-gov', urlSuffix: 'amazonaws.com' };
  return { partition: 'aws', urlSuffix: 'amazonaws.com' };
}

/**
 * The pseudo parameters `Ref` knows (besides `AWS::NoValue`, which the resolver handles).
 *
 * @example
 * pseudoParameters({ region: 'eu-west-1', accountId: '111122223333', stackName: 'ops' })['AWS::Partition']; // 'aws'
 */
export function pseudoParameters(stack: StackSettings): Record<string, string | string[]> {
  const { partition, urlSuffix } = partitionOf(stack.region);
  return {
    'AWS::Region': stack.region,
    'AWS::AccountId': stack.accountId,
    'AWS::StackName': stack.stackName,
    'AWS::StackId': `arn:${partition}:cloudformation:${stack.region}:${stack.accountId}:stack/${stack.stackName}/00000000-0000-0000-0000-000000000000`,
    'AWS::Partition': partition,
    'AWS::URLSuffix': urlSuffix,
    'AWS::NotificationARNs': [],
  };
}

function checkConstraints(declared: Record<string, unknown>, value: string, given: boolean): string | undefined {
  const what = `${JSON.stringify(value)} (${given ? 'given for the run' : 'its Default'})`;
  if (Array.isArray(declared.AllowedValues)) {
    const allowed = declared.AllowedValues.map(scalarText);
    if (!allowed.includes(value)) return `${what} is not one of its AllowedValues: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (typeof declared.AllowedPattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(`^(?:${declared.AllowedPattern})$`, 'u');
    } catch {
      pattern = undefined; // a pattern JavaScript cannot read is not checked here
    }
    if (pattern && !pattern.test(value)) return `${what} does not match its AllowedPattern ${declared.AllowedPattern}`;
  }
  return undefined;
}

/**
 * The value of each parameter the template declares, with `given` (name → value) applied. Returns the values
 * and every problem found (a missing value, a value that breaks a constraint, a malformed declaration).
 *
 * @example
 * resolveParameters({ Stage: { Type: 'String', Default: 'dev' } }, { Stage: 'prod' }).values.Stage; // { value: 'prod' }
 */
export function resolveParameters(
  declarations: unknown,
  given: Readonly<Record<string, string>>,
): { values: Record<string, ParameterValue>; problems: ParameterProblem[] } {
  const values: Record<string, ParameterValue> = {};
  const problems: ParameterProblem[] = [];
  if (declarations === undefined || declarations === null) return { values, problems };
  if (!isRecord(declarations))
    return {
      values,
      problems: [{ path: ['Parameters'], message: 'Parameters must be a mapping of parameter names to their declarations' }],
    };
  for (const [name, declared] of Object.entries(declarations)) {
    const path = ['Parameters', name];
    if (!isRecord(declared)) {
      problems.push({ path, message: 'a parameter is a mapping with at least a Type, such as { Type: String, Default: dev }' });
      continue;
    }
    const type = typeof declared.Type === 'string' ? declared.Type : 'String';
    const isGiven = Object.hasOwn(given, name);
    const raw = isGiven ? given[name] : declared.Default;
    const text = Array.isArray(raw) ? raw.map(scalarText).join(',') : scalarText(raw);
    if (text === undefined) {
      problems.push({
        path,
        message:
          raw === undefined
            ? `has no Default; give it a value for the run (--parameter ${name}=VALUE)`
            : `its Default must be a string, number or list, got ${JSON.stringify(raw)}`,
      });
      continue;
    }
    if (type.startsWith('AWS::SSM::Parameter::Value<') && !isGiven) {
      values[name] = {
        unresolvable: `parameter ${name} is the value of the SSM parameter ${JSON.stringify(text)}, read when the stack is deployed; give its value for the run (--parameter ${name}=VALUE)`,
      };
      continue;
    }
    if (type === 'Number' && !/^-?\d+(\.\d+)?$/.test(text.trim())) {
      problems.push({ path, message: `is a Number, but ${JSON.stringify(text)} is not a number` });
      continue;
    }
    const isList = type === 'CommaDelimitedList' || type.startsWith('List<') || /^AWS::SSM::Parameter::Value<List</.test(type);
    const list = isList ? (text === '' ? [] : text.split(',').map((s) => s.trim())) : undefined;
    const broken = (list ?? [text]).map((v) => checkConstraints(declared, v, isGiven)).find((m) => m !== undefined);
    if (broken) {
      problems.push({ path, message: broken });
      continue;
    }
    values[name] = { value: list ?? text };
  }
  return { values, problems };
}
