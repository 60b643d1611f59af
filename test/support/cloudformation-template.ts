// Checks a CloudFormation / AWS SAM template with cfn-lint (npm), a validator that knows the CloudFormation
// resource specification and translates SAM resources: unknown types and properties, references to
// resources that do not exist, and broken intrinsic functions are errors.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { validateFile, validateJsonObject } = require('cfn-lint') as typeof import('cfn-lint');
const { openFile } = require('cfn-lint/lib/parser.js') as typeof import('cfn-lint/lib/parser.js');

export interface TemplateCheck {
  readonly valid: boolean;
  /** The validator's critical errors: `path: message`. */
  readonly errors: string[];
}

function summarize(result: ReturnType<typeof validateFile>): TemplateCheck {
  return { valid: result.templateValid, errors: result.errors.crit.map((e) => `${e.resource}: ${e.message}`) };
}

/** Validates a template file (YAML with CloudFormation's short tags, or JSON). */
export function validateTemplateFile(file: string): TemplateCheck {
  return summarize(validateFile(file));
}

/** Validates a template already parsed into an object (to check a changed copy). */
export function validateTemplateObject(template: unknown): TemplateCheck {
  return summarize(validateJsonObject(structuredClone(template)));
}

/** A template as an object, short tags as their long forms (`!GetAtt X.Arn` → `{ 'Fn::GetAtt': ['X', 'Arn'] }`). */
export function readTemplate(file: string): Record<string, any> {
  return openFile(file) as Record<string, any>;
}
