/**
 * Reads a CloudFormation or AWS SAM template written in YAML, with the short forms of the intrinsic
 * functions (`!Ref`, `!GetAtt`, `!Sub`, `!Join`, …) turned into their JSON forms (`{ "Ref": … }`,
 * `{ "Fn::GetAtt": [resource, attribute] }`, …), as CloudFormation reads them — with the harness's own
 * template reader. An unknown `!Tag` or a YAML error is an error, never silently a string.
 */
import { readFileSync } from 'node:fs';
import { parseTemplateText } from '../../packages/harness/src/dashboard/index.js';

/** Parses template text; throws with the first YAML error or unknown tag, with line and column. */
export function parseTemplate(text: string, source = 'template.yaml'): Record<string, unknown> {
  try {
    return parseTemplateText(text, source).value;
  } catch (error) {
    throw new Error(`${source} is not a readable template: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads and parses a template file. */
export function readTemplate(file: string): Record<string, unknown> {
  return parseTemplate(readFileSync(file, 'utf8'), file);
}
