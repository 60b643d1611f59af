/**
 * Validates CloudFormation and AWS SAM templates against AWS's current resource specification, as the
 * `@aws-cdk/aws-service-spec` package ships it (AWS::Serverless::* resources included): every resource's
 * properties are turned into a JSON Schema — names, required ones, types, nested property types, lists and
 * maps, unions, intrinsic functions allowed where values go — and checked with Ajv. Then every `Ref`,
 * `Fn::GetAtt`, `Fn::Sub` variable and `Condition` must name something the template (or the SAM transform)
 * defines.
 *
 * @example
 * const problems = validateTemplate(readTemplate('examples/lambda-api/template.yaml'));
 * assert.deepEqual(problems, []);
 */
import { createRequire } from 'node:module';
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { PropertyType, Resource, SpecDatabase, TypeDefinition } from '@aws-cdk/service-spec-types';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

type Json = Record<string, any>;
type Properties = Resource['properties'];

export interface TemplateProblem {
  /** A JSON pointer into the template (`/Resources/Api/Properties/MemorySize`). */
  readonly path: string;
  readonly message: string;
}

let loaded: SpecDatabase | undefined;
/** The resource specification, read once. */
function specification(): SpecDatabase {
  loaded ??= loadAwsServiceSpecSync();
  return loaded;
}
/** The version of the specification, for messages. */
const SPEC_VERSION = (createRequire(import.meta.url)('@aws-cdk/aws-service-spec/package.json') as { version: string }).version;

/** A resource type by its CloudFormation name, or undefined. */
function resourceOf(type: string): Resource | undefined {
  return specification().lookup('resource', 'cloudFormationType', 'equals', type)[0];
}

/** What the SAM transform makes of a SAM resource, under the same logical ID: its attributes are that type's. */
const SAM_GENERATES: Record<string, string> = {
  'AWS::Serverless::Function': 'AWS::Lambda::Function',
  'AWS::Serverless::Api': 'AWS::ApiGateway::RestApi',
  'AWS::Serverless::HttpApi': 'AWS::ApiGatewayV2::Api',
  'AWS::Serverless::SimpleTable': 'AWS::DynamoDB::Table',
  'AWS::Serverless::LayerVersion': 'AWS::Lambda::LayerVersion',
  'AWS::Serverless::StateMachine': 'AWS::StepFunctions::StateMachine',
  'AWS::Serverless::Application': 'AWS::CloudFormation::Stack',
};

/** The attributes `Fn::GetAtt` may read from a resource of a type, or undefined when the type is unknown. */
function attributesOf(type: string): string[] | undefined {
  const resource = resourceOf(SAM_GENERATES[type] ?? type);
  return resource ? Object.keys(resource.attributes) : undefined;
}

const FUNCTION_KEYS = [
  'Ref',
  'Condition',
  'Fn::Base64',
  'Fn::Cidr',
  'Fn::FindInMap',
  'Fn::GetAtt',
  'Fn::GetAZs',
  'Fn::ImportValue',
  'Fn::Join',
  'Fn::Select',
  'Fn::Split',
  'Fn::Sub',
  'Fn::Transform',
  'Fn::And',
  'Fn::Equals',
  'Fn::If',
  'Fn::Not',
  'Fn::Or',
  'Fn::Length',
  'Fn::ToJsonString',
];
/** A value computed by CloudFormation: an object with exactly one intrinsic function key. */
const INTRINSIC = { type: 'object', minProperties: 1, maxProperties: 1, propertyNames: { enum: FUNCTION_KEYS } };

const INTEGER = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d+$' }] };
const PRIMITIVES: Record<string, Json> = {
  string: { type: ['string', 'number', 'boolean'] },
  integer: INTEGER,
  number: { anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }] },
  boolean: { anyOf: [{ type: 'boolean' }, { enum: ['true', 'false'] }] },
  'date-time': { type: 'string' },
  json: { type: ['object', 'array', 'string'] },
  null: { type: 'null' },
  tag: {
    type: 'object',
    required: ['Key', 'Value'],
    additionalProperties: false,
    properties: {
      Key: { anyOf: [{ type: 'string' }, INTRINSIC] },
      Value: { anyOf: [{ type: ['string', 'number', 'boolean'] }, INTRINSIC] },
    },
  },
};

/** Builds the JSON Schema of one resource type, with the definitions of the property types it reaches. */
class ResourceSchemaBuilder {
  readonly definitions: Record<string, Json> = {};
  readonly #pending: TypeDefinition[] = [];

  #definition(id: string): TypeDefinition {
    const def = specification().get('typeDefinition', id);
    if (!def) throw new Error(`The specification names a property type ${id} that it does not define.`);
    return def;
  }

  #ref(id: string): Json {
    const key = `t${id}`;
    if (!(key in this.definitions)) {
      this.definitions[key] = {};
      this.#pending.push(this.#definition(id));
    }
    return { $ref: `#/definitions/${key}` };
  }

  /** A value of the type, or an intrinsic function that computes one. */
  type(t: PropertyType): Json {
    switch (t.type) {
      case 'array':
        return { anyOf: [{ type: 'array', items: this.type(t.element) }, INTRINSIC] };
      case 'map':
        return { anyOf: [{ type: 'object', additionalProperties: this.type(t.element) }, INTRINSIC] };
      case 'ref':
        return this.#ref(t.reference.$ref);
      case 'union':
        return { anyOf: [...t.types.map((u) => this.type(u)), INTRINSIC] };
      default:
        return { anyOf: [PRIMITIVES[t.type] ?? {}, INTRINSIC] };
    }
  }

  /** An object with exactly the specification's properties, its required ones present. */
  object(properties: Properties, requireThem = true): Json {
    const required = requireThem
      ? Object.entries(properties)
          .filter(([, p]) => p.required)
          .map(([n]) => n)
      : [];
    const schema: Json = { type: 'object', additionalProperties: false, properties: {} };
    for (const [name, p] of Object.entries(properties)) {
      // A value of an earlier type of the property is still accepted.
      const types = [p.type, ...(p.previousTypes ?? [])];
      schema.properties[name] = types.length === 1 ? this.type(p.type) : { anyOf: types.map((t) => this.type(t)) };
    }
    if (required.length > 0) schema.required = required;
    // A SAM event source is told apart by its Type: `HttpApi` takes the properties of HttpApiEvent.
    const kinds = properties.Properties?.type;
    if (properties.Type?.type.type === 'string' && kinds?.type === 'union') {
      const named = kinds.types
        .flatMap((k) => (k.type === 'ref' ? [[this.#definition(k.reference.$ref).name, k] as const] : []))
        .filter(([name]) => name.endsWith('Event'));
      if (named.length > 0) {
        schema.properties.Type = { enum: named.map(([name]) => name.slice(0, -'Event'.length)) };
        schema.allOf = named.map(([name, k]) => ({
          if: { properties: { Type: { const: name.slice(0, -'Event'.length) } } },
          then: { properties: { Properties: this.type(k) } },
        }));
      }
    }
    return schema;
  }

  /** Fills the definitions reached so far (and those they reach). */
  finish(): void {
    for (let def = this.#pending.shift(); def; def = this.#pending.shift()) {
      this.definitions[`t${def.$id}`] = { anyOf: [this.object(def.properties), INTRINSIC] };
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

function resourceValidator(resource: Resource): ValidateFunction {
  let validate = validators.get(resource.cloudFormationType);
  if (!validate) {
    const builder = new ResourceSchemaBuilder();
    const hasRequired = Object.values(resource.properties).some((p) => p.required);
    const schema: Json = {
      type: 'object',
      required: hasRequired ? ['Type', 'Properties'] : ['Type'],
      additionalProperties: false,
      properties: { Type: { const: resource.cloudFormationType }, Properties: builder.object(resource.properties), ...RESOURCE_ATTRIBUTES },
    };
    builder.finish();
    schema.definitions = builder.definitions;
    validate = ajv.compile(schema);
    validators.set(resource.cloudFormationType, validate);
  }
  return validate;
}

function globalsValidator(): ValidateFunction {
  let validate = validators.get('Globals');
  if (!validate) {
    const schema: Json = { type: 'object', additionalProperties: false, properties: {} };
    const definitions: Record<string, Json> = {};
    for (const [section, type] of [
      ['Function', 'AWS::Serverless::Function'],
      ['Api', 'AWS::Serverless::Api'],
      ['HttpApi', 'AWS::Serverless::HttpApi'],
      ['SimpleTable', 'AWS::Serverless::SimpleTable'],
      ['LayerVersion', 'AWS::Serverless::LayerVersion'],
    ] as const) {
      const builder = new ResourceSchemaBuilder();
      schema.properties[section] = builder.object(resourceOf(type)?.properties ?? {}, false);
      builder.finish();
      Object.assign(definitions, builder.definitions);
    }
    schema.definitions = definitions;
    validate = ajv.compile(schema);
    validators.set('Globals', validate);
  }
  return validate;
}

const PARAMETER_TYPE =
  '^(String|Number|List<Number>|CommaDelimitedList|AWS::[A-Za-z0-9:]+|List<AWS::[A-Za-z0-9:]+>|AWS::SSM::Parameter::(Name|Value<.+>))$';
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
        properties: {
          Value: {},
          Description: { type: 'string' },
          Condition: { type: 'string' },
          Export: { type: 'object', required: ['Name'], additionalProperties: false, properties: { Name: {} } },
        },
      },
    },
  },
};
const templateValidator = ajv.compile(TEMPLATE);

const explain = (errors: readonly ErrorObject[] | null | undefined, prefix: string): TemplateProblem[] =>
  (errors ?? [])
    // anyOf/if wrappers repeat what their branches said.
    .filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'if')
    .map((e) => ({
      path: `${prefix}${e.instancePath}`,
      message: `${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    }));

const PSEUDO_PARAMETERS = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

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
    const attributes = attributesOf(resources[resource]?.Type as string);
    if (attributes && !attributes.includes(attribute))
      return `${resource} (${String(resources[resource]!.Type)}) has no attribute ${attribute}; it has ${attributes.join(', ')}`;
    return null;
  };
  const walk = (value: unknown, path: string, locals: ReadonlySet<string>): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}/${i}`, locals));
    if (typeof value !== 'object' || value === null) return;
    const object = value as Json;
    const keys = Object.keys(object);
    if (keys.length === 1 && keys[0] === 'Ref') {
      const name = object.Ref;
      if (typeof name !== 'string' || !(parameters.has(name) || isResource(name) || PSEUDO_PARAMETERS.has(name)))
        problems.push({ path, message: `Ref names nothing defined: ${JSON.stringify(name)}` });
      return;
    }
    if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
      const [resource, attribute] = object['Fn::GetAtt'] as [unknown, unknown];
      const problem =
        typeof resource === 'string' && typeof attribute === 'string'
          ? attributeProblem(resource, attribute)
          : 'takes [resource, attribute]';
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
    if (typeof r.Condition === 'string' && !conditions.has(r.Condition))
      problems.push({ path: `/Resources/${name}/Condition`, message: `names no condition: ${r.Condition}` });
    for (const dep of ([] as unknown[]).concat(r.DependsOn ?? []))
      if (typeof dep === 'string' && !isResource(dep))
        problems.push({ path: `/Resources/${name}/DependsOn`, message: `names no resource: ${dep}` });
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
      const spec = resourceOf(type);
      if (!spec) {
        problems.push({
          path: `/Resources/${name}/Type`,
          message: `unknown resource type ${type} (@aws-cdk/aws-service-spec ${SPEC_VERSION})`,
        });
        continue;
      }
      const validate = resourceValidator(spec);
      if (!validate(resource)) problems.push(...explain(validate.errors, `/Resources/${name}`));
    }
  }
  if (template.Globals !== undefined) {
    const validate = globalsValidator();
    if (!validate(template.Globals)) problems.push(...explain(validate.errors, '/Globals'));
  }
  problems.push(...checkReferences(template));
  return problems;
}
