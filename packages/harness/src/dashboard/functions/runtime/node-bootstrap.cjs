// The program a Node.js function's child process runs, playing the part of Lambda's Node.js runtime interface
// client. Plain CommonJS, so the child needs no TypeScript loader unless the handler itself is TypeScript.
//
// Protocol: JSON lines on fd 3. Parent -> child: { t: 'invoke', id, requestId, deadline, arn, event }.
// Child -> parent: { t: 'ready' }, { t: 'initError', error }, { t: 'log', d }, { t: 'exiting' } (a crash),
// { t: 'result', id, ok, value | error } where error is Lambda's { errorType, errorMessage, trace }.
'use strict';
const net = require('node:net');
const path = require('node:path');
const fs = require('node:fs');
const util = require('node:util');
const { pathToFileURL } = require('node:url');
const { createRequire } = require('node:module');
const { Writable } = require('node:stream');

// Setup modules (`--setup <file>`, repeatable) load before the handler, in order.
// `--runtime nodejsNN.x` gives that runtime's rules; without it, every handler signature is accepted.
// `--modules-from <folder>`: the handler's code is text the harness wrote into its private folder (a template's
// inline code); its packages resolve from that folder (the template's) and NODE_PATH, never from the folders
// above the private folder, where another user could have put a node_modules.
const setupFiles = [];
let runtime = '';
let modulesFrom = '';
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--setup' && process.argv[i + 1]) setupFiles.push(process.argv[++i]);
  else if (process.argv[i] === '--runtime' && process.argv[i + 1]) runtime = process.argv[++i];
  else if (process.argv[i] === '--modules-from' && process.argv[i + 1]) modulesFrom = path.resolve(process.argv[++i]);
}
const codeFolder = path.resolve(process.env.LAMBDA_TASK_ROOT || process.cwd(), path.dirname(process.env._HANDLER || ''));
if (modulesFrom) {
  const Module = require('node:module');
  const nodeModulePaths = Module._nodeModulePaths;
  const inCode = (dir) => {
    const rel = path.relative(codeFolder, dir);
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  Module._nodeModulePaths = function (from) {
    return nodeModulePaths.call(this, inCode(from) ? modulesFrom : from);
  };
}

// `import` finds what NODE_PATH holds (the AWS SDK the harness provides), as `require` does, and inline code's
// `import` resolves as its `require` does. In the function's own thread where Node.js can (registerHooks): the
// loader thread of `register` is memory Lambda's runtime does not spend.
if (process.env.NODE_PATH || modulesFrom) {
  const pins = modulesFrom ? { pinned: pathToFileURL(codeFolder).href + '/', from: pathToFileURL(path.join(modulesFrom, 'package.json')).href } : {};
  const Module = require('node:module');
  if (typeof Module.registerHooks === 'function') {
    const { nodePathResolve } = require('./node-path-resolve.cjs');
    const folders = (process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean);
    Module.registerHooks({ resolve: nodePathResolve(folders, pins.pinned, pins.from) });
  } else {
    Module.register(pathToFileURL(path.join(__dirname, 'node-path-hook.mjs')).href, { data: pins });
  }
}
const runtimeMajor = Number((/^nodejs(\d+)\.x$/.exec(runtime) || [])[1] || 0);
// From nodejs24.x on, Lambda refuses callback-style handlers at init, and the context has no callback helpers.
const callbacksRemoved = runtimeMajor >= 24;

const channel = new net.Socket({ fd: 3, readable: true, writable: true });
channel.on('error', () => process.exit(0));
channel.on('end', () => process.exit(0));
const send = (obj) => channel.write(JSON.stringify(obj) + '\n');

let current = null;
let handler = null;
const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');

// The harness keeps 1 MiB of log per invocation (and per init); what is past it is dropped here, as it is
// written, so a function that logs far more neither waits on nor fills memory with text nobody reads. The piece
// that crosses the limit is still sent: the harness cuts it and marks the log as truncated.
const LOG_LIMIT_CHARS = 1024 * 1024;
// One write larger than the harness reads in one message (Lambda's response limit and its envelope) is dropped
// whole, with a note, and the log goes on.
const MAX_WRITE_BYTES = 6291556 + 1024;
let logChars = 0;
const logFull = () => logChars > LOG_LIMIT_CHARS;
function emit(text) {
  if (!text.length || logFull()) return;
  if (text.length > MAX_WRITE_BYTES / 6 && Buffer.byteLength(text) > MAX_WRITE_BYTES) {
    text = '[a write of ' + Buffer.byteLength(text) + ' bytes to the log was dropped: one write may be at most ' + MAX_WRITE_BYTES + ' bytes]\n';
  }
  logChars += text.length;
  send({ t: 'log', d: text });
}
const LEVELS = { log: 'INFO', info: 'INFO', warn: 'WARN', error: 'ERROR', debug: 'DEBUG', trace: 'TRACE' };
for (const method of Object.keys(LEVELS)) {
  console[method] = function (...args) {
    if (logFull()) return;
    let message = util.format(...args);
    if (method === 'trace') message = 'Trace: ' + message + '\n' + String(new Error().stack).split('\n').slice(2).join('\n');
    emit(new Date().toISOString() + '\t' + (current ? current.requestId : 'undefined') + '\t' + LEVELS[method] + '\t' + message + '\n');
  };
}
for (const stream of [process.stdout, process.stderr]) {
  stream.write = function (chunk, encoding, cb) {
    if (!logFull()) emit(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
}

// Writes straight to fd 1 or 2 go to the log as on Lambda. The stdio pipes are non-blocking here (they are
// sockets to the harness), so a synchronous write would otherwise fail with EAGAIN once the pipe is full.
const writeSync = fs.writeSync;
fs.writeSync = function (fd, data, ...rest) {
  if (fd !== 1 && fd !== 2) return writeSync.call(fs, fd, data, ...rest);
  if (typeof data === 'string') {
    emit(data);
    return Buffer.byteLength(data);
  }
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const offset = typeof rest[0] === 'number' ? rest[0] : 0;
  const length = typeof rest[1] === 'number' ? rest[1] : bytes.length - offset;
  emit(bytes.subarray(offset, offset + length).toString('utf8'));
  return length;
};

globalThis.awslambda = {
  streamifyResponse(fn) { fn[STREAMING] = 'response'; return fn; },
  HttpResponseStream: { from(stream) { return stream; } },
};

function isError(e) { return util.types.isNativeError(e) || (e instanceof Object && 'message' in e && 'name' in e && 'stack' in e); }
function toDoc(e) {
  try {
    if (isError(e)) return { errorType: String(e.name), errorMessage: String(e.message), trace: String(e.stack || '').split('\n') };
    return { errorType: typeof e, errorMessage: String(e), trace: [] };
  } catch {
    return { errorType: 'handled', errorMessage: 'callback called with Error argument, but there was a problem while retrieving one or more of its message, name, and stack' };
  }
}
function runtimeError(type, message, cause) {
  const e = new Error(message);
  e.name = type;
  if (cause && cause.stack) e.stack = String(cause.stack);
  return e;
}

function isFile(p) { try { return fs.statSync(p).isFile(); } catch { return false; } }
function packageIsModule(file) {
  let dir = path.dirname(file);
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (isFile(pj)) { try { return JSON.parse(fs.readFileSync(pj, 'utf8')).type === 'module'; } catch { return false; } }
    const up = path.dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}
function wrapLoadError(e) {
  if (e && (e.code === 'MODULE_NOT_FOUND' || e.code === 'ERR_MODULE_NOT_FOUND')) return runtimeError('Runtime.ImportModuleError', 'Error: ' + e.message, e);
  if (e && e.code === 'ERR_UNKNOWN_FILE_EXTENSION') return runtimeError('Runtime.ImportModuleError', 'Error: ' + e.message + ' (TypeScript handlers need the tsx package installed beside the harness or the handler)', e);
  if (e && e.name === 'SyntaxError') return runtimeError('Runtime.UserCodeSyntaxError', 'SyntaxError: ' + e.message, e);
  return e;
}
// Loads a module as Node.js would: .mjs and .mts, and .js and .ts under a package.json of type module, are ES modules.
async function load(file) {
  const esm = /\.m[jt]s$/.test(file) || (/\.[jt]s$/.test(file) && packageIsModule(file));
  return esm ? await import(pathToFileURL(file).href) : createRequire(file)(file);
}
async function loadModule(basePath, moduleName) {
  try {
    if (isFile(basePath)) return createRequire(basePath)(basePath);
    for (const ext of ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']) {
      if (isFile(basePath + ext)) return await load(basePath + ext);
    }
  } catch (e) {
    throw wrapLoadError(e);
  }
  throw runtimeError('Runtime.ImportModuleError', "Error: Cannot find module '" + moduleName + "'");
}
async function loadSetup(file) {
  try {
    await load(file);
  } catch (e) {
    const wrapped = wrapLoadError(e);
    if (wrapped && typeof wrapped === 'object' && 'message' in wrapped) wrapped.message = 'in the setup module ' + file + ': ' + wrapped.message;
    throw wrapped;
  }
}
async function loadHandler() {
  for (const file of setupFiles) await loadSetup(file);
  const full = process.env._HANDLER || '';
  const slash = full.lastIndexOf('/');
  const match = /^([^.]*)\.(.*)$/.exec(full.slice(slash + 1));
  if (!match || !match[1] || !match[2]) throw runtimeError('Runtime.MalformedHandlerName', 'Bad handler');
  const mod = await loadModule(path.resolve(process.env.LAMBDA_TASK_ROOT || process.cwd(), full.slice(0, slash + 1), match[1]), match[1]);
  const fn = match[2].split('.').reduce((o, key) => (o === undefined || o === null ? undefined : o[key]), mod);
  if (fn === undefined || fn === null) throw runtimeError('Runtime.HandlerNotFound', full + ' is undefined or not exported');
  if (typeof fn !== 'function') throw runtimeError('Runtime.HandlerNotFound', full + ' is not a function');
  return fn;
}

function respond(inv, outcome) {
  if (inv.finished) return;
  inv.finished = true;
  if (current === inv) current = null;
  channel.ref();
  if (!outcome.ok) return send({ t: 'result', id: inv.id, ok: false, error: outcome.error });
  let text;
  try { text = JSON.stringify(outcome.value); } catch (e) {
    return send({ t: 'result', id: inv.id, ok: false, error: { errorType: 'Runtime.MarshalError', errorMessage: 'Unable to stringify response body: ' + e.message, trace: [] } });
  }
  channel.write('{"t":"result","id":' + inv.id + ',"ok":true,"value":' + (text === undefined ? 'null' : text) + '}\n');
}
const succeeded = (value) => ({ ok: true, value });
const failed = (err) => ({ ok: false, error: toDoc(err) });
const settle = (err, value) => (err === undefined || err === null ? succeeded(value) : failed(err));

function invoke(msg) {
  const inv = { id: msg.id, requestId: msg.requestId, finished: false, waiting: null };
  current = inv;
  logChars = 0;
  const env = process.env;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: msg.arn,
    memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: msg.requestId,
    logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
    identity: undefined,
    clientContext: undefined,
    getRemainingTimeInMillis: () => Math.max(0, msg.deadline - Date.now()),
    done: (err, value) => respond(inv, settle(err, value)),
    succeed: (value) => respond(inv, succeeded(value)),
    fail: (err) => respond(inv, failed(err === undefined || err === null ? 'handled' : err)),
  };
  if (callbacksRemoved) {
    for (const key of ['callbackWaitsForEmptyEventLoop', 'done', 'succeed', 'fail']) delete context[key];
  }
  const callback = (err, value) => {
    if (inv.finished || inv.waiting) return;
    const outcome = settle(err, value);
    if (context.callbackWaitsForEmptyEventLoop !== false) { inv.waiting = outcome; channel.unref(); } else respond(inv, outcome);
  };
  try {
    if (handler[STREAMING] === 'response') return invokeStreaming(inv, msg.event, context);
    const result = handler(msg.event, context, callback);
    if (result && typeof result.then === 'function') {
      result.then((v) => { if (!inv.waiting) respond(inv, succeeded(v)); }, (e) => { if (!inv.waiting) respond(inv, failed(e)); });
    } else if (!inv.finished && !inv.waiting) {
      inv.returnedSync = true;
      channel.unref();
    }
  } catch (e) {
    respond(inv, failed(e));
  }
}
function invokeStreaming(inv, event, context) {
  const chunks = [];
  const stream = new Writable({ write(chunk, _enc, cb) { chunks.push(Buffer.from(chunk)); cb(); } });
  stream.setContentType = () => {};
  stream.on('finish', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let value;
    try { value = JSON.parse(text); } catch { value = text; }
    respond(inv, succeeded(value));
  });
  const result = handler(event, stream, context);
  if (result && typeof result.then === 'function') {
    result.then(() => { if (!stream.writableEnded) stream.end(); }, (e) => respond(inv, failed(e)));
  }
}

process.on('beforeExit', () => {
  const inv = current;
  if (inv && !inv.finished && inv.waiting) respond(inv, inv.waiting);
  else if (inv && !inv.finished && inv.returnedSync) respond(inv, succeeded(null));
  else channel.ref();
});
function fatal(doc, label) {
  emit(new Date().toISOString() + '\t' + (current ? current.requestId : 'undefined') + '\tERROR\t' + label + ' \t' + JSON.stringify(doc) + '\n');
  // The process is about to end: the harness must hand the next invocation to a fresh environment.
  send({ t: 'exiting' });
  const inv = current;
  if (inv && !inv.finished) { inv.finished = true; send({ t: 'result', id: inv.id, ok: false, error: doc }); }
  channel.ref();
  channel.write('', () => process.exit(129));
}
process.on('uncaughtException', (e) => fatal(toDoc(e), 'Uncaught Exception'));
process.on('unhandledRejection', (reason) => {
  const doc = { errorType: 'Runtime.UnhandledPromiseRejection', errorMessage: String(reason), trace: isError(reason) ? String(reason.stack).split('\n') : [] };
  fatal(doc, 'Unhandled Promise Rejection');
});

let pending = [];
channel.on('data', (chunk) => {
  let start = 0;
  let nl = chunk.indexOf(10);
  while (nl !== -1) {
    pending.push(chunk.subarray(start, nl));
    const line = Buffer.concat(pending).toString('utf8');
    pending = [];
    if (line) { const msg = JSON.parse(line); if (msg.t === 'invoke') invoke(msg); }
    start = nl + 1;
    nl = chunk.indexOf(10, start);
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});

// nodejs24.x's rule: a handler that is not async, not streaming and takes three parameters is a callback handler.
function refuseCallbackHandler(fn) {
  const isAsync = Object.prototype.toString.call(fn) === '[object AsyncFunction]';
  if (!callbacksRemoved || isAsync || fn[STREAMING] || fn.length < 3) return fn;
  throw runtimeError(
    'Runtime.CallbackHandlerDeprecated',
    'ERROR: AWS Lambda has removed support for callback-based function handlers starting with Node.js 24. You need to modify this function to use a supported handler signature to use Node.js 24 or later. For more information see https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html.',
  );
}

loadHandler().then(refuseCallbackHandler).then(
  (fn) => { handler = fn; logChars = 0; send({ t: 'ready' }); },
  (e) => send({ t: 'initError', error: toDoc(e) }),
);
