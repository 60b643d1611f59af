/**
 * Function targets: how a custom widget's endpoint (a Lambda ARN or name) is invoked by the harness —
 * in-process JavaScript, Node.js and Python Lambda modules in warm child processes, or the Lambda Invoke API.
 */
export type {
  FunctionInfo,
  FunctionSpec,
  FunctionsConfig,
  InProcessHandler,
  InvokeError,
  InvokeOptions,
  InvokeOutcome,
  LambdaContext,
} from './types.js';
export { FunctionsConfigError, loadFunctionsFile, validateFunctionsConfig } from './config.js';
export { FunctionRegistry } from './registry.js';
export { FUNCTION_NAME, parseEndpoint } from './endpoint.js';
export { parseJsonText } from './json-text.js';
export { schemaCheck, schemaProblemMessage, withoutUndefined, type JsonSchema, type SchemaProblem } from './schema-check.js';
export { showValue } from './show-value.js';
export { isRecord } from './json-value.js';
export { privateCodeFolder } from './private-folder.js';
export { MAX_RESPONSE_BYTES } from './payload-limit.js';
