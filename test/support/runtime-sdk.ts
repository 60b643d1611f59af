/**
 * A stand-in for the AWS SDK that Lambda's Node.js runtimes bring: `@aws-sdk/client-ssm` in a bundle's
 * node_modules, answering GetParameter for the parameters given (decrypted only when asked to).
 *
 * @example
 * writeSsmStandIn(bundleDir, { '/orders-api/api-keys': '{"k1":{"subject":"ana"}}' });
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeSsmStandIn(dir: string, parameters: Readonly<Record<string, string>>): void {
  const sdk = join(dir, 'node_modules', '@aws-sdk', 'client-ssm');
  mkdirSync(sdk, { recursive: true });
  writeFileSync(join(sdk, 'package.json'), JSON.stringify({ name: '@aws-sdk/client-ssm', type: 'module', main: 'index.js' }));
  writeFileSync(
    join(sdk, 'index.js'),
    `const parameters = ${JSON.stringify(parameters)};
export class GetParameterCommand { constructor(input) { this.input = input; } }
export class SSMClient {
  async send(command) {
    const { Name, WithDecryption } = command.input;
    if (!Object.hasOwn(parameters, Name)) throw Object.assign(new Error('ParameterNotFound: ' + Name), { name: 'ParameterNotFound' });
    if (WithDecryption !== true) throw new Error('a SecureString read without WithDecryption');
    return { Parameter: { Name, Type: 'SecureString', Value: parameters[Name] } };
  }
}
`,
  );
}
