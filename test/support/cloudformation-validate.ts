/**
 * Validates CloudFormation and AWS SAM templates against the published CloudFormation resource specification
 * (the `@aws-cdk/cfnspec` package ships it, AWS::Serverless::* resources included): every resource's
 * properties are turned into a JSON Schema — names, required ones, types, nested property types, lists and
 * maps, intrinsic functions allowed where values go — and checked with Ajv. Then every `Ref`, `Fn::GetAtt`,
 * `Fn::Sub` variable and `Condition` must name something the template (or the SAM transform) defines.
 *
 * @example
 * const problems = validateTemplate(readTemplate('examples/lambda-api/template.yaml'));
 * assert.deepEqual(problems, []);
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

type Json = Record<string, any>;
interface SpecProperty {
  PrimitiveType?: string; PrimitiveTypes?: string[]; Type?: string; Types?: string[]; ItemType?: string; ItemTypes?: string[];
  PrimitiveItemType?: string; PrimitiveItemTypes?: string[]; InclusiveItemTypes?: string[]; InclusivePrimitiveItemTypes?: string[];
  Required?: boolean;
}
interface SpecType { Properties?: Record<string, SpecProperty>; PrimitiveType?: string; Attributes?: Record<string, unknown> }
interface Specification { ResourceSpecificationVersion: string; ResourceTypes: Record<string, SpecType>; PropertyTypes: Record<string, SpecType> }

export interface TemplateProblem {
  /** A JSON pointer into the template (`/Resources/Api/Properties/MemorySize`). */
  readonly path: string;
  readonly message: string;
}

let loaded: Specification | undefined;
/** The CloudFormation resource specification, read once. */
export function specification(): Specification {
  loaded ??= JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@aws-cdk/cfnspec/spec/specification.json'), 'utf8')) as Specification;
  return loaded;
}

const FUNCTION_KEYS = ['Ref', 'Condition', 'Fn::Base64', 'Fn::Cidr', 'Fn::FindInMap', 'Fn::GetAtt', 'Fn::GetAZs', 'Fn::ImportValue', 'Fn::Join', 'Fn::Select', 'Fn::Split', 'Fn::Sub', 'Fn::Transform', 'Fn::And', 'Fn::Equals', 'Fn::If', 'Fn::Not', 'Fn::Or', 'Fn::Length', 'Fn::ToJsonString'];
/** A value computed by CloudFormation: an object with exactly one intrinsic function key. */
const INTRINSIC = { type: 'object', minProperties: 1, maxProperties: 1, propertyNames: { enum: FUNCTION_KEYS } };

const PRIMITIVES: Record<string, Json> = {
  String: { type: ['string', 'number', 'boolean'] },
  Integer: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d+$' }] },
  Long: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d+$' }] },
  Double: { anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }] },
  Boolean: { anyOf: [{ type: 'boolean' }, { enum: ['true', 'false'] }] },
  Timestamp: { type: 'string' },
  Json: { type: ['object', 'array', 'string'] },
};

const defName = (name: string): string => name.replace(/[^A-Za-z0-9]/g, '_');

/** Builds the JSON Schema of one resource type, with the definitions of the property types it reaches. */
class ResourceSchemaBuilder {
  readonly definitions: Record<string, Json> = {};
  readonly #pending: [string, SpecType][] = [];

  constructor(private readonly spec: Specification, private readonly resourceType: string) {}

  #ref(typeName: string): Json {
    const qualified = `${this.resourceType}.${typeName}`;
    const full = this.spec.PropertyTypes[qualified] ? qualified : typeName;
    const def = this.spec.PropertyTypes[full];
    if (!def) throw new Error(`The specification names a property type ${typeName} of ${this.resourceType} that it does not define.`);
    const key = defName(full);
    if (!(key in this.definitions)) {
      this.definitions[key] = {};
      this.#pending.push([key, def]);
    }
    return { $ref: `#/definitions/${key}` };
  }

  #alternatives(primitives: readonly string[] | undefined, types: readonly string[] | undefined): Json[] {
    return [...(primitives ?? []).map((p) => PRIMITIVES[p] ?? {}), ...(types ?? []).map((t) => this.#ref(t))];
  }

  #item(p: SpecProperty): Json {
    const options = this.#alternatives(
      [...(p.PrimitiveItemType ? [p.PrimitiveItemType] : []), ...(p.PrimitiveItemTypes ?? [])],
      [...(p.ItemType ? [p.ItemType] : []), ...(p.ItemTypes ?? [])],
    );
    return { anyOf: [...options, INTRINSIC] };
  }

  property(p: SpecProperty): Json {
    if (p.Type === 'List') return { anyOf: [{ type: 'array', items: this.#item(p) }, INTRINSIC] };
    if (p.Type === 'Map') return { anyOf: [{ type: 'object', additionalProperties: this.#item(p) }, INTRINSIC] };
    const options = this.#alternatives(
      [...(p.PrimitiveType ? [p.PrimitiveType] : []), ...(p.PrimitiveTypes ?? [])],
      [...(p.Type ? [p.Type] : []), ...(p.Types ?? [])],
    );
    const inclusive = this.#alternatives(p.InclusivePrimitiveItemTypes, p.InclusiveItemTypes);
    if (inclusive.length > 0) options.push({ type: 'array', items: { anyOf: [...inclusive, INTRINSIC] } });
    return { anyOf: [...options, INTRINSIC] };
  }

  /** An object with exactly the specification's properties, its required ones present. */
  object(properties: Record<string, SpecProperty>, requireThem = true): Json {
    const required = requireThem ? Object.entries(properties).filter(([, p]) => p.Required).map(([n]) => n) : [];
    const schema: Json = { type: 'object', additionalProperties: false, properties: {} };
    for (const [name, p] of Object.entries(properties)) schema.properties[name] = this.property(p);
    if (required.length > 0) schema.required = required;
    // An event source (SAM) is told apart by its Type: `HttpApi` takes the properties of HttpApiEvent.
    const kinds = properties.Properties?.Types;
    if (properties.Type?.PrimitiveType === 'String' && kinds) {
      const named = kinds.filter((k) => k.endsWith('Event'));
      schema.properties.Type = { enum: named.map((k) => k.slice(0, -'Event'.length)) };
      schema.allOf = named.map((k) => ({ if: { properties: { Type: { const: k.slice(0, -'Event'.length) } } }, then: { properties: { Properties: this.#ref(k) } } }));
    }
    return schema;
  }

  /** Fills the definitions reached so far (and those they reach). */
  finish(): void {
    for (let next = this.#pending.shift(); next; next = this.#pending.shift()) {
      const [key, def] = next;
      this.definitions[key] = def.Properties ? { anyOf: [this.object(def.Properties), INTRINSIC] } : (PRIMITIVES[def.PrimitiveType ?? ''] ?? {});
    }
  }
}

const RESOURCE_ATTRIBUTES = {
  DependsOn: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  Condition: { type: 'string' },
  Metadata: { type: 'object' },
  DeletionPolicy: { enum: ['Delete', 'Retain', 'Snapshot', 'RetainExceptOnCreate'] },
  UpdateReplacePolicy: { enum: ['Delete', 'Retain', 'Snapshot'] },
  CreationPolicy: { type: 'object' },
  UpdatePolicy: { type: 'object' },
};

const validators = new Map<string, ValidateFunction>();
const ajv = new Ajv({ allErrors: true, strict: false });

function resourceValidator(type: string): ValidateFunction {
  let validate = validators.get(type);
  if (!validate) {
    const builder = new ResourceSchemaBuilder(specification(), type);
    const properties = specification().ResourceTypes[type]!.Properties ?? {};
    const hasRequired = Object.values(properties).some((p) => p.Required);
    const schema: Json = {
      type: 'object',
      required: hasRequired ? ['Type', 'Properties'] : ['Type'],
      additionalProperties: false,
      properties: { Type: { const: type }, Properties: builder.object(properties), ...RESOURCE_ATTRIBUTES },
    };
    builder.finish();
    schema.definitions = builder.definitions;
    validate = ajv.compile(schema);
    validators.set(type, validate);
  }
  return validate;
}

function globalsValidator(): ValidateFunction {
  let validate = validators.get('Globals');
  if (!validate) {
    const schema: Json = { type: 'object', additionalProperties: false, properties: {} };
    const definitions: Record<string, Json> = {};
    for (const [section, type] of [['Function', 'AWS::Serverless::Function'], ['Api', 'AWS::Serverless::Api'], ['HttpApi', 'AWS::Serverless::HttpApi'], ['SimpleTable', 'AWS::Serverless::SimpleTable'], ['LayerVersion', 'AWS::Serverless::LayerVersion']] as const) {
      const builder = new ResourceSchemaBuilder(specification(), type);
      schema.properties[section] = builder.object(specification().ResourceTypes[type]?.Properties ?? {}, false);
      builder.finish();
      Object.assign(definitions, builder.definitions);
    }
    schema.definitions = definitions;
    validate = ajv.compile(schema);
    validators.set('Globals', validate);
  }
  return validate;
}

const PARAMETER_TYPE = '^(String|Number|List<Number>|CommaDelimitedList|AWS::[A-Za-z0-9:]+|List<AWS::[A-Za-z0-9:]+>|AWS::SSM::Parameter::(Name|Value<.+>))$';
const TEMPLATE: Json = {
  type: 'object',
  required: ['Resources'],
  additionalProperties: false,
  properties: {
    AWSTemplateFormatVersion: { const: '2010-09-09' },
    Description: { type: 'string', maxLength: 1024 },
    Transform: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    Metadata: { type: 'object' },
    Globals: { type: 'object' },
    Rules: { type: 'object' },
    Mappings: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'object' } } },
    Conditions: { type: 'object', additionalProperties: INTRINSIC },
    Parameters: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['Type'],
        additionalProperties: false,
        properties: {
          Type: { type: 'string', pattern: PARAMETER_TYPE },
          Default: { type: ['string', 'number', 'boolean'] },
          NoEcho: { type: ['boolean', 'string'] },
          AllowedValues: { type: 'array' },
          AllowedPattern: { type: 'string' },
          ConstraintDescription: { type: 'string' },
          Description: { type: 'string', maxLength: 4000 },
          MaxLength: { type: ['integer', 'string'] },
          MinLength: { type: ['integer', 'string'] },
          MaxValue: { type: ['number', 'string'] },
          MinValue: { type: ['number', 'string'] },
        },
      },
    },
    Resources: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[A-Za-z0-9]+$' },
      additionalProperties: { type: 'object', required: ['Type'], properties: { Type: { type: 'string' } } },
    },
    Outputs: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['Value'],
        additionalProperties: false,
        properties: { Value: {}, Description: { type: 'string' }, Condition: { type: 'string' }, Export: { type: 'object', required: ['Name'], additionalProperties: false, properties: { Name: {} } } },
      },
    },
  },
};
const templateValidator = ajv.compile(TEMPLATE);

const explain = (errors: readonly ErrorObject[] | null | undefined, prefix: string): TemplateProblem[] =>
  (errors ?? [])
    // anyOf/if wrappers repeat what their branches said.
    .filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'if')
    .map((e) => ({ path: `${prefix}${e.instancePath}`, message: `${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}` }));

const PSEUDO_PARAMETERS = new Set(['AWS::AccountId', 'AWS::NotificationARNs', 'AWS::NoValue', 'AWS::Partition', 'AWS::Region', 'AWS::StackId', 'AWS::StackName', 'AWS::URLSuffix']);

/** Names the SAM transform adds: the implicit APIs and each function's role (when it names none). */
function samNames(resources: Record<string, Json>): Set<string> {
  const names = new Set(['ServerlessRestApi', 'ServerlessHttpApi']);
  for (const [name, r] of Object.entries(resources)) {
    if (r.Type === 'AWS::Serverless::Function') {
      if (r.Properties?.Role === undefined) names.add(`${name}Role`);
      names.add(`${name}Url`);
    }
  }
  return names;
}

/** Every reference names a parameter, a resource, a pseudo parameter, a condition, or what SAM adds. */
function checkReferences(template: Json): TemplateProblem[] {
  const resources = (template.Resources ?? {}) as Record<string, Json>;
  const parameters = new Set(Object.keys(template.Parameters ?? {}));
  const conditions = new Set(Object.keys(template.Conditions ?? {}));
  const transforms = ([] as unknown[]).concat(template.Transform ?? []);
  const sam = transforms.some((t) => typeof t === 'string' && t.startsWith('AWS::Serverless')) ? samNames(resources) : new Set<string>();
  const isResource = (name: string) => name in resources || sam.has(name);
  const problems: TemplateProblem[] = [];
  const attributeProblem = (resource: string, attribute: string): string | null => {
    if (!isResource(resource)) return `names no resource: ${resource}`;
    const spec = specification().ResourceTypes[resources[resource]?.Type as string];
    if (spec?.Attributes && !(attribute in spec.Attributes)) return `${resource} (${String(resources[resource]!.Type)}) has no attribute ${attribute}; it has ${Object.keys(spec.Attributes).join(', ')}`;
    return null;
  };
  const walk = (value: unknown, path: string, locals: ReadonlySet<string>): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}/${i}`, locals));
    if (typeof value !== 'object' || value === null) return;
    const object = value as Json;
    const keys = Object.keys(object);
    if (keys.length === 1 && keys[0] === 'Ref') {
      const name = object.Ref;
      if (typeof name !== 'string' || !(parameters.has(name) || isResource(name) || PSEUDO_PARAMETERS.has(name))) problems.push({ path, message: `Ref names nothing defined: ${JSON.stringify(name)}` });
      return;
    }
    if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
      const [resource, attribute] = object['Fn::GetAtt'] as [unknown, unknown];
      const problem = typeof resource === 'string' && typeof attribute === 'string' ? attributeProblem(resource, attribute) : 'takes [resource, attribute]';
      if (problem) problems.push({ path, message: `Fn::GetAtt ${problem}` });
      return;
    }
    if (keys.length === 1 && keys[0] === 'Fn::Sub') {
      const sub = object['Fn::Sub'];
      const [text, variables] = Array.isArray(sub) ? [sub[0], (sub[1] ?? {}) as Json] : [sub, {}];
      if (typeof text !== 'string') problems.push({ path, message: 'Fn::Sub takes a string, or [string, variables]' });
      else {
        for (const match of text.matchAll(/\$\{(?!!)([^}]*)\}/g)) {
          const name = match[1]!.trim();
          if (name in variables || parameters.has(name) || PSEUDO_PARAMETERS.has(name) || isResource(name)) continue;
          const dot = name.indexOf('.');
          const problem = dot > 0 ? attributeProblem(name.slice(0, dot), name.slice(dot + 1)) : `names nothing defined: ${name}`;
          if (problem) problems.push({ path, message: `Fn::Sub \${${name}} ${problem}` });
        }
      }
      walk(variables, `${path}/Fn::Sub/1`, locals);
      return;
    }
    if (keys.length === 1 && keys[0] === 'Condition' && typeof object.Condition === 'string' && path.split('/').length > 3) {
      if (!conditions.has(object.Condition)) problems.push({ path, message: `Condition names no condition: ${object.Condition}` });
    }
    for (const key of keys) walk(object[key], `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, locals);
  };
  for (const section of ['Resources', 'Outputs', 'Conditions', 'Globals'] as const) walk(template[section], `/${section}`, new Set());
  for (const [name, r] of Object.entries(resources)) {
    if (typeof r.Condition === 'string' && !conditions.has(r.Condition)) problems.push({ path: `/Resources/${name}/Condition`, message: `names no condition: ${r.Condition}` });
    for (const dep of ([] as unknown[]).concat(r.DependsOn ?? [])) if (typeof dep === 'string' && !isResource(dep)) problems.push({ path: `/Resources/${name}/DependsOn`, message: `names no resource: ${dep}` });
  }
  return problems;
}

/** Every problem found in a template (parsed with `readTemplate`/`parseTemplate`); empty when it is valid. */
export function validateTemplate(template: Record<string, unknown>): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  if (!templateValidator(template)) problems.push(...explain(templateValidator.errors, ''));
  const resources = (template.Resources ?? {}) as Record<string, Json>;
  if (typeof resources === 'object' && resources !== null) {
    for (const [name, resource] of Object.entries(resources)) {
      const type = resource?.Type;
      if (typeof type !== 'string') continue;
      if (type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource') continue;
      if (!specification().ResourceTypes[type]) {
        problems.push({ path: `/Resources/${name}/Type`, message: `unknown resource type ${type} (resource specification ${specification().ResourceSpecificationVersion})` });
        continue;
      }
      const validate = resourceValidator(type);
      if (!validate(resource)) problems.push(...explain(validate.errors, `/Resources/${name}`));
    }
  }
  if (template.Globals !== undefined) {
    const validate = globalsValidator();
    if (!validate(template.Globals)) problems.push(...explain(validate.errors, '/Globals'));
  }
  problems.push(...checkReferences(template as Json));
  return problems;
}
