import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { identityFor } from './lambda-context.js';
import { CREDENTIAL_VARIABLES, lambdaEnvironment, toAwsEndpoint, type EnvironmentSettings } from './lambda-environment.js';

const settings = (extra: Partial<EnvironmentSettings> = {}): EnvironmentSettings => ({
  identity: identityFor('report'),
  handler: 'widgets/report.handler',
  taskRoot: '/srv/widgets',
  executionEnv: 'AWS_Lambda_nodejs20.x',
  programDir: '/opt/node/bin',
  nodePath: ['/tmp/sdk/node_modules'],
  ...extra,
});

/** The variables a function without any opt-in has, whatever the host's environment. */
const BASE = Object.keys(lambdaEnvironment(settings(), {})).sort();
const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);
const hostEnvironment = fc.dictionary(name, fc.string({ maxLength: 20 }), { maxKeys: 30 });

test('whatever the host environment holds, a function without opt-ins gets the same variables and none of its values', () => {
  fc.assert(
    fc.property(
      hostEnvironment,
      fc.constantFrom(...CREDENTIAL_VARIABLES),
      fc.string({ minLength: 8, maxLength: 20 }),
      (host, credential, secret) => {
        const withSecret = { ...host, [credential]: `secret-${secret}`, SECRET_X: `secret-${secret}` };
        const env = lambdaEnvironment(settings(), withSecret);
        assert.deepEqual(Object.keys(env).sort(), BASE);
        for (const value of Object.values(env)) assert.ok(!value.includes(`secret-${secret}`), 'no host value reaches the function');
      },
    ),
  );
});

test('passEnvironment adds exactly the named host variables that are set; the configured environment comes last', () => {
  fc.assert(
    fc.property(hostEnvironment, fc.uniqueArray(name, { maxLength: 5 }), (host, wanted) => {
      const env = lambdaEnvironment(settings({ passEnvironment: wanted, environment: { STAGE: 'test', TZ: 'Europe/Paris' } }), host);
      const passed = wanted.filter((n) => host[n] !== undefined && !['STAGE', 'TZ'].includes(n));
      for (const n of passed) assert.equal(env[n], host[n]);
      const extra = Object.keys(env).filter((n) => !BASE.includes(n) && n !== 'STAGE');
      assert.deepEqual(extra.sort(), passed.filter((n) => !BASE.includes(n)).sort());
      assert.deepEqual([env.STAGE, env.TZ], ['test', 'Europe/Paris']);
    }),
  );
});

test('credentials come only from the chosen source; an endpoint brings its own dummy pair', () => {
  const host = { AWS_ACCESS_KEY_ID: 'AKIAHOST', AWS_SECRET_ACCESS_KEY: 'hostsecret', AWS_SESSION_TOKEN: 'tok', HOME: '/home/dev' };
  const fromEnv = lambdaEnvironment(settings({ awsCredentials: 'environment' }), host);
  assert.deepEqual(
    [fromEnv.AWS_ACCESS_KEY_ID, fromEnv.AWS_SECRET_ACCESS_KEY, fromEnv.AWS_SESSION_TOKEN],
    ['AKIAHOST', 'hostsecret', 'tok'],
  );
  assert.equal(fromEnv.AWS_EC2_METADATA_DISABLED, undefined);
  const profile = lambdaEnvironment(settings({ awsCredentials: 'profile:dev' }), host);
  assert.deepEqual(
    [profile.AWS_PROFILE, profile.AWS_CONFIG_FILE, profile.AWS_SHARED_CREDENTIALS_FILE, profile.AWS_ACCESS_KEY_ID],
    ['dev', '/home/dev/.aws/config', '/home/dev/.aws/credentials', undefined],
  );
  const emulated = lambdaEnvironment(settings({ awsEndpoint: toAwsEndpoint({ url: 'http://127.0.0.1:4566', region: 'eu-west-1' }) }), host);
  assert.deepEqual(
    [emulated.AWS_ENDPOINT_URL, emulated.AWS_ACCESS_KEY_ID, emulated.AWS_SECRET_ACCESS_KEY, emulated.AWS_REGION],
    ['http://127.0.0.1:4566', 'test', 'test', 'eu-west-1'],
  );
  assert.equal(emulated.AWS_SESSION_TOKEN, undefined);
});

test('an endpoint URL with a user and password gives them as the key pair and leaves the URL without them', () => {
  assert.deepEqual(toAwsEndpoint('http://S3RVER:S3RVER@127.0.0.1:4568'), {
    url: 'http://127.0.0.1:4568',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
  assert.deepEqual(toAwsEndpoint('https://key%2Fid:p%40ss@emulator.test/base/'), {
    url: 'https://emulator.test/base/',
    accessKeyId: 'key/id',
    secretAccessKey: 'p@ss',
  });
  assert.deepEqual(toAwsEndpoint({ url: 'http://127.0.0.1:4566/', accessKeyId: 'given' }), {
    url: 'http://127.0.0.1:4566',
    accessKeyId: 'given',
  });
});
