import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { credentialsFromEnvironment, signRequest } from './sigv4.js';

// The get-vanilla and post-vanilla cases of AWS's published Signature Version 4 test suite.
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const now = new Date('2015-08-30T12:36:00Z');
const sign = (method: string, extra: Record<string, string> = {}) =>
  signRequest({
    method,
    url: new URL('https://example.amazonaws.com/'),
    headers: extra,
    body: '',
    region: 'us-east-1',
    service: 'service',
    credentials,
    now,
  });

describe('SigV4 signing', () => {
  test('matches the AWS test suite vectors', () => {
    assert.deepEqual(sign('GET'), {
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    });
    assert.match(sign('POST').authorization!, /Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b$/);
  });

  test('a session token is sent and signed; other headers are kept', () => {
    const headers = signRequest({
      method: 'POST',
      url: new URL('https://lambda.eu-west-1.amazonaws.com/2015-03-31/functions/report/invocations'),
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      region: 'eu-west-1',
      service: 'lambda',
      credentials: { ...credentials, sessionToken: 'token' },
      now,
    });
    assert.equal(headers['x-amz-security-token'], 'token');
    assert.equal(headers['content-type'], 'application/json');
    assert.match(
      headers.authorization!,
      /Credential=AKIDEXAMPLE\/20150830\/eu-west-1\/lambda\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, /,
    );
  });

  test('credentials come from the standard variables, or not at all', () => {
    assert.equal(credentialsFromEnvironment({}), undefined);
    assert.deepEqual(credentialsFromEnvironment({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' }), {
      accessKeyId: 'a',
      secretAccessKey: 'b',
    });
  });
});
