/**
 * Reads a CloudFormation or AWS SAM template written in YAML, with the short forms of the intrinsic
 * functions (`!Ref`, `!GetAtt`, `!Sub`, `!Join`, …) turned into their JSON forms (`{ "Ref": … }`,
 * `{ "Fn::GetAtt": [resource, attribute] }`, …), as CloudFormation reads them. An unknown `!Tag` or a YAML
 * error is an error, never silently a string.
 */
import { readFileSync } from 'node:fs';
import { Pair, Scalar, YAMLMap, parseDocument, type Node, type ScalarTag, type CollectionTag } from 'yaml';

/** Short form → JSON key. `!Ref` and `!Condition` have no `Fn::` prefix. */
const FUNCTIONS: Record<string, string> = {
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

/** `{ key: node }` as a YAML map, so nested tags inside `node` are still resolved when the document becomes JS. */
function wrapped(key: string, node: Node | string): YAMLMap {
  const map = new YAMLMap();
  map.items.push(new Pair(new Scalar(key), typeof node === 'string' ? new Scalar(node) : node));
  return map;
}

function tags(): (ScalarTag | CollectionTag)[] {
  const out: (ScalarTag | CollectionTag)[] = [];
  for (const [short, key] of Object.entries(FUNCTIONS)) {
    const tag = `!${short}`;
    // `!GetAtt Resource.Attribute` is the one scalar form with structure: the first dot splits it.
    const scalar = short === 'GetAtt'
      ? (value: string) => {
          const dot = value.indexOf('.');
          if (dot <= 0) throw new Error(`!GetAtt needs Resource.Attribute, got ${JSON.stringify(value)}`);
          return { [key]: [value.slice(0, dot), value.slice(dot + 1)] };
        }
      : (value: string) => ({ [key]: value });
    out.push({ tag, resolve: scalar } as ScalarTag);
    out.push({ tag, collection: 'seq', resolve: (seq: Node) => wrapped(key, seq) } as unknown as CollectionTag);
    out.push({ tag, collection: 'map', resolve: (map: Node) => wrapped(key, map) } as unknown as CollectionTag);
  }
  return out;
}

/** Parses template text; throws with every YAML error and unknown tag, with line and column. */
export function parseTemplate(text: string, source = 'template'): Record<string, unknown> {
  const doc = parseDocument(text, { customTags: tags(), uniqueKeys: true, prettyErrors: true });
  const problems = [...doc.errors, ...doc.warnings].map((e) => e.message);
  if (problems.length > 0) throw new Error(`${source} is not a readable template:\n${problems.join('\n')}`);
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${source}: a template is a mapping at the top level.`);
  return value as Record<string, unknown>;
}

/** Reads and parses a template file. */
export function readTemplate(file: string): Record<string, unknown> {
  return parseTemplate(readFileSync(file, 'utf8'), file);
}
