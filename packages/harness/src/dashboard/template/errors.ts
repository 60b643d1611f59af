/**
 * The one error class of template loading. `kind` says whether the template is wrong (`invalid`: it does not
 * parse, an intrinsic function is malformed or unknown, a name is missing) or only cannot be resolved on this
 * machine (`unresolvable`: an SSM or Secrets Manager reference, `Fn::ImportValue`, an attribute of a resource
 * that does not exist here). The loader turns the second kind into warnings where it can leave a value out.
 */

/** Where in a template a value sits: property names and list indexes from the top. */
export type TemplatePath = ReadonlyArray<string | number>;

/** `Resources.Dashboard.Properties.DashboardBody.Fn::Sub[0]`. */
export function pathText(path: TemplatePath): string {
  let text = '';
  for (const step of path) text += typeof step === 'number' ? `[${step}]` : text === '' ? step : `.${step}`;
  return text || '(top level)';
}

/** A line and column (both from 1) in a template file. */
export interface TemplatePosition {
  line: number;
  column: number;
}

/**
 * A template that cannot be used, or a value in it that cannot be resolved here. The message starts with
 * `file:line:column:` when the place is known, then the property path.
 *
 * @example
 * try { await loadTemplate('template.yaml'); }
 * catch (e) { if (e instanceof TemplateError) console.error(e.message); } // template.yaml:12:7: Resources.Fn.Properties.Handler: …
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
  constructor(
    /** The problem, without the file and path. */
    readonly problem: string,
    readonly kind: 'invalid' | 'unresolvable',
    readonly file: string,
    readonly path: TemplatePath = [],
    readonly position?: TemplatePosition,
  ) {
    const at = position ? `${file}:${position.line}:${position.column}` : file;
    super(path.length > 0 ? `${at}: ${pathText(path)}: ${problem}` : `${at}: ${problem}`);
  }
}

/** `error` when it is a TemplateError of a value that exists only in AWS (which a loader can leave out); else rethrown. */
export function unresolvable(error: unknown): TemplateError {
  if (error instanceof TemplateError && error.kind === 'unresolvable') return error;
  throw error;
}
