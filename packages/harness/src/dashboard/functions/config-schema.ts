// The functions file (docs/functions-file.md), described once as a JSON Schema: validateFunctionsConfig checks a
// configuration against it, then config.ts checks what a schema cannot say (that modules exist, that a profile is
// in the AWS config files, which fields go together).
import { NODE_RUNTIMES, PYTHON_RUNTIMES, RUNTIME_CHOICES } from './runtimes.js';
import type { JsonSchema } from './schema-check.js';

/** A variable name as Lambda takes it. */
export const ENV_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const REGION = '^[a-z]{2}(-[a-z0-9]+)+-\\d+$';

const url = { type: 'string', pattern: '^https?://[^\\s/?#]', description: 'an http(s) base URL such as "http://127.0.0.1:3001"' };
const seconds = (max: number) => ({
  type: 'number',
  exclusiveMinimum: 0,
  maximum: max,
  description: `a number of seconds greater than 0 and at most ${max}`,
});
const credentials = {
  type: 'string',
  pattern: '^(none|environment|profile:.*)$',
  description: `"none", "environment" (pass the harness's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN) or "profile:NAME"`,
};
const key = { type: 'string', pattern: '^\\S+$', description: 'a non-empty string without spaces' };
const endpoint = {
  description: 'a URL such as "http://127.0.0.1:4566" or { "url": ..., "region": ... }',
  oneOf: [
    url,
    {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url,
        region: { type: 'string', pattern: REGION, description: 'a region such as "eu-west-1"' },
        accessKeyId: key,
        secretAccessKey: key,
      },
    },
  ],
};
const passEnvironment = {
  type: 'array',
  description: 'an array of variable names such as ["API_KEY"]',
  items: { type: 'string', pattern: ENV_NAME.source, description: 'a variable name (a letter, then letters, digits and _)' },
};

const spec = {
  type: 'object',
  description: 'an object such as { "handler": "widgets/file.handler" }',
  additionalProperties: false,
  properties: {
    // A string or, given in code, a function: checked by config.ts, which also finds the module.
    handler: {},
    runtime: { enum: ['nodejs', ...NODE_RUNTIMES, 'python', ...PYTHON_RUNTIMES], description: RUNTIME_CHOICES },
    invokeUrl: url,
    timeoutSeconds: seconds(900),
    memoryMB: { type: 'integer', minimum: 128, maximum: 10240, description: 'a whole number of MB from 128 to 10240' },
    environment: {
      type: 'object',
      description: 'an object of string values',
      propertyNames: { pattern: ENV_NAME.source, description: 'a variable name starts with a letter and holds only letters, digits and _' },
      additionalProperties: { type: 'string', description: 'a string' },
    },
    initTimeoutSeconds: seconds(900),
    awsCredentials: credentials,
    awsEndpoint: endpoint,
    passEnvironment,
    setup: {
      type: 'array',
      description: 'an array of module paths such as ["test/stub-aws.cjs"]',
      items: { type: 'string', minLength: 1, description: 'a path to a module' },
    },
  },
};

/** A functions file, or the same object in code. */
export const functionsFileSchema: JsonSchema = {
  type: 'object',
  description: 'an object such as { "functions": { ... } }',
  required: ['functions'],
  additionalProperties: false,
  properties: {
    functions: { type: 'object', description: 'an object mapping a function name or ARN to its settings', additionalProperties: spec },
    invokeUrl: url,
    baseDir: { type: 'string', description: 'a folder path' },
    awsCredentials: credentials,
    awsEndpoint: endpoint,
    passEnvironment,
    awsSdkPath: { type: 'string', minLength: 1, description: 'a folder path' },
  },
};
