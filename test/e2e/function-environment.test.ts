// A module function's process gets Lambda's environment and its configured variables, nothing of the
// harness's own environment; real AWS credentials only when the configuration opts in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startS3Emulator, type S3Emulator } from '../../packages/harness/src/cli/s3-emulator.js';
import {
  FunctionRegistry,
  FunctionsConfigError,
  validateFunctionsConfig,
  type FunctionsConfig,
  type InvokeOutcome,
} from '../../packages/harness/src/dashboard/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));
const python = process.env.TRELLIS_PYTHON ?? 'python3';
const hasBoto3 = spawnSync(python, ['-c', 'import boto3'], { stdio: 'ignore' }).status === 0;
// Missing boto3 skips these tests on a developer's machine and fails them in CI, where it must be installed.
const boto3Skip =
  hasBoto3 || process.env.CI === 'true'
    ? false
    : `${python} has no boto3 (install it with "pip install boto3" or "apt-get install python3-boto3")`;

/** What every Node.js function's process holds, whatever the harness's own environment. */
const LAMBDA_NODE = [
  'AWS_CONFIG_FILE',
  'AWS_DEFAULT_REGION',
  'AWS_EC2_METADATA_DISABLED',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_NODEJS_CONNECTION_REUSE_ENABLED',
  'AWS_REGION',
  'AWS_SHARED_CREDENTIALS_FILE',
  'LAMBDA_RUNTIME_DIR',
  'LAMBDA_TASK_ROOT',
  'LANG',
  'NODE_PATH',
  'PATH',
  'TRELLIS_WIDGET_ENVIRONMENT',
  'TZ',
  '_HANDLER',
];

const HOST = {
  SECRET_X: 'host secret',
  AWS_ACCESS_KEY_ID: 'AKIAHOSTKEY',
  AWS_SECRET_ACCESS_KEY: 'host-secret-key',
  AWS_SESSION_TOKEN: 'host-session-token',
  AWS_PROFILE: 'host-profile',
  NODE_OPTIONS: '--no-warnings',
};

/** Sets the harness's own environment for the tests of this file, and puts it back after them. */
function hostEnvironment(extra: Record<string, string> = {}): void {
  const saved = new Map<string, string | undefined>();
  before(() => {
    for (const [name, value] of Object.entries({ ...HOST, ...extra })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });
  after(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

function valueOf(outcome: InvokeOutcome): any {
  assert.equal(outcome.ok, true, `expected a value, got ${JSON.stringify(outcome.error)}\n${outcome.logs}`);
  return outcome.value;
}

describe("a function's environment", () => {
  hostEnvironment();
  let r: FunctionRegistry;
  before(() => {
    r = new FunctionRegistry(
      validateFunctionsConfig(
        {
          functions: {
            plain: { handler: 'aws/environment.handler', environment: { STAGE: 'test' } },
            withCredentials: { handler: 'aws/environment.handler', awsCredentials: 'environment' },
            withSecret: { handler: 'aws/environment.handler', passEnvironment: ['SECRET_X', 'NOT_SET_ANYWHERE'] },
            arn: { handler: 'aws/environment.handler' },
            'arn:aws:lambda:eu-west-1:111122223333:function:regional': { handler: 'aws/environment.handler' },
            inProcess: { handler: () => 'in-process' },
            py: { handler: 'py-aws/environment.lambda_handler', runtime: 'python' },
          },
        },
        fixtures,
      ),
    );
  });
  after(() => r.close());

  test("holds exactly Lambda's variables and the configured ones: no host variable, no credentials", async () => {
    const { env, sdk } = valueOf(await r.invoke('plain', {}));
    assert.deepEqual(Object.keys(env).sort(), [...LAMBDA_NODE, 'STAGE'].sort());
    assert.equal(env.STAGE, 'test');
    for (const name of Object.keys(HOST)) assert.equal(env[name], undefined, `${name} must not reach the function`);
    assert.deepEqual(
      [env.TZ, env.LANG, env.AWS_REGION, env.AWS_LAMBDA_FUNCTION_NAME, env._HANDLER],
      [':UTC', 'en_US.UTF-8', 'us-east-1', 'plain', 'aws/environment.handler'],
    );
    assert.equal(env.AWS_EXECUTION_ENV, `AWS_Lambda_nodejs${process.versions.node.split('.')[0]}.x`);
    assert.match(env.PATH, /\/usr\/bin/);
    // The SDK finds no credentials: neither the developer's shared files nor instance metadata.
    assert.deepEqual(
      [env.AWS_CONFIG_FILE, env.AWS_SHARED_CREDENTIALS_FILE, env.AWS_EC2_METADATA_DISABLED],
      ['/dev/null', '/dev/null', 'true'],
    );
    assert.match(sdk, /@aws-sdk[/\\]client-s3/);
    const regional = valueOf(await r.invoke('arn:aws:lambda:eu-west-1:111122223333:function:regional', {}));
    assert.deepEqual([regional.env.AWS_REGION, regional.env.AWS_DEFAULT_REGION], ['eu-west-1', 'eu-west-1']);
  });

  test('awsCredentials "environment" passes the three credential variables and nothing else of the host', async () => {
    const { env } = valueOf(await r.invoke('withCredentials', {}));
    assert.deepEqual(
      [env.AWS_ACCESS_KEY_ID, env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN],
      [HOST.AWS_ACCESS_KEY_ID, HOST.AWS_SECRET_ACCESS_KEY, HOST.AWS_SESSION_TOKEN],
    );
    assert.equal(env.SECRET_X, undefined);
    assert.equal(env.AWS_PROFILE, undefined);
  });

  test('passEnvironment copies the host variables it names, when set', async () => {
    const { env } = valueOf(await r.invoke('withSecret', {}));
    assert.equal(env.SECRET_X, HOST.SECRET_X);
    assert.equal('NOT_SET_ANYWHERE' in env, false);
    assert.equal(env.AWS_ACCESS_KEY_ID, undefined);
  });

  test('describe() says which functions got real credentials', () => {
    const byName = Object.fromEntries(r.describe().map((f) => [f.name, f]));
    assert.deepEqual(byName.plain, {
      name: 'plain',
      runtime: 'nodejs',
      lambdaRuntime: null,
      awsCredentials: 'none',
      awsEndpoint: null,
      setup: [],
    });
    assert.equal(byName.withCredentials!.awsCredentials, 'environment');
    assert.equal(byName.inProcess!.awsCredentials, 'host');
    assert.equal(byName.py!.runtime, 'python');
  });

  test(
    'a Python function gets the same clean environment',
    { skip: spawnSync(python, ['--version']).status === 0 ? false : `no ${python}` },
    async () => {
      const { env } = valueOf(await r.invoke('py', {}));
      for (const name of Object.keys(HOST)) assert.equal(env[name], undefined, `${name} must not reach the function`);
      assert.deepEqual(
        [env.TZ, env.LANG, env.AWS_LAMBDA_FUNCTION_NAME, env.AWS_EC2_METADATA_DISABLED],
        [':UTC', 'en_US.UTF-8', 'py', 'true'],
      );
      assert.equal(env.NODE_PATH, undefined);
    },
  );

  test('a Python function imports boto3 from the Python that runs it', { skip: boto3Skip }, async () => {
    const { boto3 } = valueOf(await r.invoke('py', {}));
    assert.match(boto3, /^\d+\.\d+\.\d+/);
  });
});

describe('opting in to real credentials: checked when the configuration is', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-aws-config-'));
    writeFileSync(join(dir, 'config'), '[default]\nregion = us-east-1\n\n[profile s3rver]\nregion = us-east-1\n');
    writeFileSync(join(dir, 'credentials'), '[s3rver]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const check = (value: object, env: Record<string, string> = {}): string => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      validateFunctionsConfig({ functions: { f: { handler: 'aws/environment.handler', ...value } } }, fixtures);
      return 'accepted';
    } catch (error) {
      assert.ok(error instanceof FunctionsConfigError);
      return `${error.entry}: ${error.message}`;
    } finally {
      for (const name of Object.keys(env)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  };

  test('bad values are refused with the entry named', () => {
    assert.match(check({ awsCredentials: 'yes' }), /awsCredentials: .* must be "none", "environment" .* or "profile:NAME"/);
    assert.match(check({ awsCredentials: 'profile:no such' }), /is not a profile name/);
    assert.match(
      check(
        { awsCredentials: 'profile:missing' },
        { AWS_CONFIG_FILE: join(dir, 'config'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials') },
      ),
      /no profile "missing"/,
    );
    assert.equal(
      check(
        { awsCredentials: 'profile:s3rver' },
        { AWS_CONFIG_FILE: join(dir, 'config'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials') },
      ),
      'accepted',
    );
    assert.match(check({ passEnvironment: ['AWS_SECRET_ACCESS_KEY'] }), /carries AWS credentials; give "awsCredentials"/);
    assert.match(check({ passEnvironment: ['AWS_REGION'] }), /reserved by Lambda/);
    assert.match(check({ passEnvironment: 'SECRET_X' }), /must be an array of variable names/);
    assert.match(check({ awsEndpoint: 'ftp://127.0.0.1' }), /awsEndpoint must be an http\(s\) base URL/);
    assert.match(check({ awsEndpoint: { url: 'http://127.0.0.1:1', region: 'Mars' } }), /region must be a region such as "eu-west-1"/);
    assert.match(check({ awsEndpoint: { url: 'http://127.0.0.1:1', bucket: 'x' } }), /unknown field "bucket"/);
  });

  test('"environment" needs the credential variables in the harness environment', () => {
    const saved = [process.env.AWS_ACCESS_KEY_ID, process.env.AWS_SECRET_ACCESS_KEY];
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    try {
      assert.match(check({ awsCredentials: 'environment' }), /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set/);
    } finally {
      if (saved[0] !== undefined) process.env.AWS_ACCESS_KEY_ID = saved[0];
      if (saved[1] !== undefined) process.env.AWS_SECRET_ACCESS_KEY = saved[1];
    }
  });

  describe('a profile reaches the SDK of the functions that name it, and only those', () => {
    let s3: S3Emulator;
    let r: FunctionRegistry;
    const saved: Record<string, string | undefined> = {};
    before(async () => {
      for (const name of ['AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE']) saved[name] = process.env[name];
      process.env.AWS_CONFIG_FILE = join(dir, 'config');
      process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
      s3 = await startS3Emulator(['profiles']);
      await s3.put('profiles', 'who.html', '<p>read with the s3rver profile</p>');
      const config: FunctionsConfig = validateFunctionsConfig(
        {
          functions: {
            withProfile: { handler: 'aws/s3-report.handler', awsCredentials: 'profile:s3rver' },
            pyWithProfile: { handler: 'py-aws/s3_report.lambda_handler', runtime: 'python', awsCredentials: 'profile:s3rver' },
            withoutProfile: { handler: 'aws/s3-report.handler' },
          },
          // An endpoint without credentials in it: only the profile's key pair is accepted there.
          awsEndpoint: s3.url,
        },
        fixtures,
      );
      r = new FunctionRegistry(config);
    });
    after(async () => {
      await r?.close();
      await s3?.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    test('Node.js: the profile signs the request; without it the dummy key is refused', async () => {
      const event = { bucket: 'profiles', key: 'who.html' };
      assert.equal(valueOf(await r.invoke('withProfile', event)), '<p>read with the s3rver profile</p>');
      const refused = await r.invoke('withoutProfile', event);
      assert.equal(refused.error?.type, 'InvalidAccessKeyId');
      const info = Object.fromEntries(r.describe().map((f) => [f.name, f.awsCredentials]));
      assert.deepEqual(info, { withProfile: 'profile:s3rver', pyWithProfile: 'profile:s3rver', withoutProfile: 'none' });
    });

    test('Python: boto3 reads the same profile and endpoint', { skip: boto3Skip }, async () => {
      assert.equal(
        valueOf(await r.invoke('pyWithProfile', { bucket: 'profiles', key: 'who.html' })),
        '<p>read with the s3rver profile</p>',
      );
    });
  });
});

describe('Python setup modules run before the handler', { skip: boto3Skip }, () => {
  const r = new FunctionRegistry(
    validateFunctionsConfig(
      {
        functions: { buckets: { handler: 'py-aws/list_buckets.lambda_handler', runtime: 'python', setup: ['py-aws/stub_s3.py'] } },
      },
      fixtures,
    ),
  );
  after(() => r.close());

  test('a botocore Stubber installed by a setup module answers the handler', async () => {
    assert.equal(valueOf(await r.invoke('buckets', {})), '<ul><li>stubbed-reports</li><li>stubbed-logs</li></ul>');
  });
});
