/**
 * CloudFormation's condition functions — `Fn::Equals`, `Fn::Not`, `Fn::And`, `Fn::Or` and `{ Condition: Name }` —
 * as `Conditions` and `Fn::If` use them.
 */
import { isRecord } from '../functions/index.js';
import type { TemplateError, TemplatePath } from './errors.js';

/** Nesting allowed in one value, intrinsic functions included (a bound for hostile templates). */
export const MAX_DEPTH = 64;

/** What evaluating a condition needs of the resolver. */
export interface ConditionContext {
  /** A value with its intrinsic functions resolved. */
  value(expr: unknown, path: TemplatePath, depth: number): unknown;
  /** A named condition of `Conditions`. */
  condition(name: string, path: TemplatePath): boolean;
  fail(kind: TemplateError['kind'], path: TemplatePath, problem: string): never;
}

const show = (v: unknown): string => (typeof v === 'symbol' ? 'AWS::NoValue' : (JSON.stringify(v) ?? String(v)));

/** The truth of a condition expression. */
export function conditionValue(ctx: ConditionContext, expr: unknown, path: TemplatePath, depth: number): boolean {
  if (depth > MAX_DEPTH) ctx.fail('invalid', path, `nested more than ${MAX_DEPTH} levels deep`);
  const key = isRecord(expr) && Object.keys(expr).length === 1 ? Object.keys(expr)[0]! : undefined;
  const args = key === undefined ? undefined : (expr as Record<string, unknown>)[key];
  const at = key === undefined ? path : [...path, key];
  const list = (min: number, max: number): unknown[] => {
    if (!Array.isArray(args) || args.length < min || args.length > max) {
      ctx.fail('invalid', at, `${key} takes a list of ${min === max ? min : `${min} to ${max}`} conditions, got ${show(args)}`);
    }
    return args;
  };
  switch (key) {
    case 'Fn::Equals': {
      if (!Array.isArray(args) || args.length !== 2) ctx.fail('invalid', at, `Fn::Equals takes a list of two values, got ${show(args)}`);
      const [a, b] = args
        .map((v, i) => ctx.value(v, [...at, i], depth + 1))
        .map((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v));
      return show(a) === show(b);
    }
    case 'Fn::Not':
      return !conditionValue(ctx, list(1, 1)[0], [...at, 0], depth + 1);
    case 'Fn::And':
      return list(2, 10).every((c, i) => conditionValue(ctx, c, [...at, i], depth + 1));
    case 'Fn::Or':
      return list(2, 10).some((c, i) => conditionValue(ctx, c, [...at, i], depth + 1));
    case 'Condition':
      if (typeof args !== 'string') ctx.fail('invalid', at, `Condition takes the name of a condition, got ${show(args)}`);
      return ctx.condition(args, at);
    default:
      return ctx.fail('invalid', at, `a condition is Fn::Equals, Fn::Not, Fn::And, Fn::Or or { Condition: Name }, got ${show(expr)}`);
  }
}
