/**
 * Reads template text — CloudFormation YAML with the short forms of the intrinsic functions (`!Ref`, `!Sub`,
 * `!GetAtt`, …), or JSON — into the JSON form CloudFormation works on (`{ "Ref": … }`, `{ "Fn::GetAtt": [A, B] }`),
 * with the `yaml` package and one custom tag per short form. Every YAML error and every unknown `!Tag` is an
 * error with line and column; the parsed document is kept so that later errors can say where a value is.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  Pair,
  parseDocument,
  Scalar,
  YAMLMap,
  type CollectionTag,
  type Node,
  type ScalarTag,
} from 'yaml';
import { parseJsonText } from '../functions/index.js';
import { TemplateError, type TemplatePath, type TemplatePosition } from './errors.js';

/** Short form → the JSON form's key. `!Ref` and `!Condition` have no `Fn::` prefix. */
export const SHORT_FORMS: Readonly<Record<string, string>> = {
  Ref: 'Ref',
  Condition: 'Condition',
  Base64: 'Fn::Base64',
  Cidr: 'Fn::Cidr',
  FindInMap: 'Fn::FindInMap',
  GetAtt: 'Fn::GetAtt',
  GetAZs: 'Fn::GetAZs',
  ImportValue: 'Fn::ImportValue',
  Join: 'Fn::Join',
  Select: 'Fn::Select',
  Split: 'Fn::Split',
  Sub: 'Fn::Sub',
  Transform: 'Fn::Transform',
  And: 'Fn::And',
  Equals: 'Fn::Equals',
  If: 'Fn::If',
  Not: 'Fn::Not',
  Or: 'Fn::Or',
  Length: 'Fn::Length',
  ToJsonString: 'Fn::ToJsonString',
};

/** Expanded aliases allowed in one template (a bound against "billion laughs" documents). */
const MAX_ALIASES = 1000;

/** `{ key: node }` as a YAML map, so that tags nested in `node` are still resolved when the document becomes JS. */
function wrapped(key: string, node: Node): YAMLMap {
  const map = new YAMLMap();
  map.items.push(new Pair(new Scalar(key), node));
  return map;
}

/** The custom tags: a scalar, a sequence and a mapping form for each short form. */
function cloudFormationTags(): Array<ScalarTag | CollectionTag> {
  const tags: Array<ScalarTag | CollectionTag> = [];
  for (const [short, key] of Object.entries(SHORT_FORMS)) {
    const tag = `!${short}`;
    // `!GetAtt Resource.Attribute` is the one scalar form with structure: the first dot splits it.
    const resolve: ScalarTag['resolve'] =
      short === 'GetAtt'
        ? (value, onError) => {
            const dot = value.indexOf('.');
            if (dot <= 0 || dot === value.length - 1) {
              onError(`!GetAtt needs "LogicalId.Attribute", got ${JSON.stringify(value)}`);
              return value;
            }
            return { [key]: [value.slice(0, dot), value.slice(dot + 1)] };
          }
        : (value) => ({ [key]: value });
    tags.push({ tag, resolve });
    tags.push({ tag, collection: 'seq', resolve: (seq: Node) => wrapped(key, seq) } as unknown as CollectionTag);
    tags.push({ tag, collection: 'map', resolve: (map: Node) => wrapped(key, map) } as unknown as CollectionTag);
  }
  return tags;
}

const TAGS = cloudFormationTags();

/** A parsed template: its JSON-form value, and where a path's value starts in the file. */
export interface ParsedTemplateText {
  value: Record<string, unknown>;
  readonly locate: (path: TemplatePath) => TemplatePosition | undefined;
}

/**
 * Parses template text. `file` names it in errors. A `.json` file must be strict JSON; anything else is read
 * as YAML 1.2 (of which JSON is a part).
 */
export function parseTemplateText(text: string, file: string): ParsedTemplateText {
  if (/\.json$/i.test(file)) {
    const json = parseJsonText(text);
    if (!json.ok) {
      const { line, column, message } = json.problem;
      throw new TemplateError(`not valid JSON: ${message}`, 'invalid', file, [], { line, column });
    }
  }
  const lineCounter = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { customTags: TAGS, uniqueKeys: true, lineCounter, prettyErrors: false });
  } catch (error) {
    // The parser recurses into nested collections: a document nested thousands deep ends here.
    throw new TemplateError(`cannot be read as YAML: ${(error as Error).message}`, 'invalid', file);
  }
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const start = lineCounter.linePos(problem.pos[0]);
    const message =
      problem.code === 'MULTIPLE_DOCS'
        ? 'the file holds more than one YAML document; a template is one'
        : /call stack/i.test(problem.message)
          ? 'nested too deeply to read'
          : problem.message;
    const count = doc.errors.length + doc.warnings.length;
    const more = count > 1 && !/call stack/i.test(problem.message) ? ` (and ${count - 1} more problems)` : '';
    const known = Object.keys(SHORT_FORMS)
      .map((s) => `!${s}`)
      .join(', ');
    const hint =
      problem.code === 'TAG_RESOLVE_FAILED' && /^Unresolved tag/.test(message) ? ` (CloudFormation's short forms are ${known})` : '';
    throw new TemplateError(`${message}${hint}${more}`, 'invalid', file, [], { line: start.line, column: start.col });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new TemplateError(`cannot be read: ${(error as Error).message}`, 'invalid', file);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TemplateError(
      'a template is a mapping at the top level (AWSTemplateFormatVersion, Parameters, Resources, …)',
      'invalid',
      file,
      [],
      { line: 1, column: 1 },
    );
  }
  // The deepest node the path reaches (an alias or a short form's scalar ends the walk): where its value starts.
  const locate = (path: TemplatePath): TemplatePosition | undefined => {
    let node: unknown = doc.contents;
    for (const step of path) {
      let next: unknown;
      if (isMap(node)) next = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(step))?.value;
      else if (isSeq(node) && typeof step === 'number') next = node.items[step];
      if (!next) break;
      node = next;
    }
    const offset = isMap(node) || isSeq(node) || isScalar(node) || isAlias(node) ? node.range?.[0] : undefined;
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return { value: value as Record<string, unknown>, locate };
}
