// The templates given to `trellis harness --template`: each one's functions added to the functions
// configuration (a function configured twice is an error naming both places) and its dashboards preloaded.
import { resolve } from 'node:path';
import { loadTemplate, type FunctionsConfig, type TemplateOptions } from '../dashboard/index.js';
import { parseEndpoint } from '../dashboard/functions/index.js';

/** A dashboard a template creates, with the template's path as the user gave it. */
export interface TemplateDashboardSource {
  file: string;
  name: string;
  text: string;
}

export interface LoadedTemplates {
  functions: FunctionsConfig;
  dashboards: TemplateDashboardSource[];
  warnings: string[];
  /** Every parameter some template declares. */
  parameterNames: Set<string>;
  /** The code folder of each function a template configures, by its key (for watch mode). */
  codeFolders: Record<string, string>;
  /** The templates' absolute paths. */
  files: string[];
}

/** Two sources configure the same function. */
export class DuplicateFunctionError extends Error {}

/** Two keys name the same function: equal, or a name and an ARN with that name. */
function sameFunction(a: string, b: string): boolean {
  if (a === b) return true;
  const pa = parseEndpoint(a);
  const pb = parseEndpoint(b);
  if (!pa || !pb) return false;
  return (pa.unqualifiedArn === undefined) !== (pb.unqualifiedArn === undefined) && pa.name === pb.name;
}

/**
 * Loads the templates in order and adds their functions to `config` (from the functions file `configFile`,
 * if any). Throws a TemplateError for a template that cannot be used, and a DuplicateFunctionError naming both places when
 * two sources configure the same function.
 */
export async function loadTemplates(
  files: readonly string[],
  options: TemplateOptions,
  config: FunctionsConfig,
  configFile: string | undefined,
): Promise<LoadedTemplates> {
  const functions = { ...config.functions };
  const origin = new Map<string, string>(Object.keys(config.functions).map((key) => [key, `the functions file ${configFile}`]));
  const dashboards: TemplateDashboardSource[] = [];
  const warnings: string[] = [];
  const parameterNames = new Set<string>();
  const codeFolders: Record<string, string> = {};
  for (const file of files) {
    const template = await loadTemplate(file, options);
    Object.assign(codeFolders, template.codeFolders);
    for (const [key, spec] of Object.entries(template.functions.functions)) {
      const here = `${file} (Resources.${template.functionResources[key]})`;
      for (const [other, where] of origin) {
        if (sameFunction(key, other))
          throw new DuplicateFunctionError(
            `the function ${key} is configured twice: by ${where}${other === key ? '' : ` as ${other}`} and by ${here}`,
          );
      }
      origin.set(key, here);
      functions[key] = spec;
    }
    for (const d of template.dashboards) dashboards.push({ file, name: d.name, text: d.text });
    warnings.push(...template.warnings);
    for (const name of template.parameterNames) parameterNames.add(name);
  }
  return {
    functions: { ...config, functions },
    dashboards,
    warnings,
    parameterNames,
    codeFolders,
    files: files.map((file) => resolve(file)),
  };
}
