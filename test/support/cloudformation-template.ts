// The widget example's template checks, through the same validator as every template in examples/: a JSON
// Schema made from the CloudFormation resource specification (SAM resources included), plus references to
// resources and parameters that do not exist.
import { validateTemplate } from './cloudformation-validate.js';
import { readTemplate as readYamlTemplate } from './cloudformation-yaml.js';

export interface TemplateCheck {
  readonly valid: boolean;
  /** The validator's errors: `path: message`. */
  readonly errors: string[];
}

function summarize(template: Record<string, unknown>): TemplateCheck {
  const errors = validateTemplate(template).map((p) => `${p.path}: ${p.message}`);
  return { valid: errors.length === 0, errors };
}

/** Validates a template file (YAML with CloudFormation's short tags, or JSON). */
export function validateTemplateFile(file: string): TemplateCheck {
  return summarize(readYamlTemplate(file));
}

/** Validates a template already parsed into an object (to check a changed copy). */
export function validateTemplateObject(template: unknown): TemplateCheck {
  return summarize(structuredClone(template) as Record<string, unknown>);
}

/** A template as an object, short tags as their long forms (`!GetAtt X.Arn` → `{ 'Fn::GetAtt': ['X', 'Arn'] }`). */
export function readTemplate(file: string): Record<string, any> {
  return readYamlTemplate(file) as Record<string, any>;
}
