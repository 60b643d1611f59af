// Runs the bundle Lambda runs (dist/handler.mjs, made by `npm run build`) on this machine: each API Gateway
// event file named on the command line, one after another in one execution environment, as Lambda's runtime
// calls the handler; prints each answer. The handler's init reads the API keys from SSM Parameter Store: here
// aws-sdk-client-mock answers that call with the sample keys below, so nothing calls AWS. Rate limits are
// counted in this process (unless REDIS_URL or RATE_LIMIT_TABLE is set, as on Lambda).
//   node local/invoke.mjs events/create-order.json events/list-orders.json
import { readFileSync } from 'node:fs';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';

// What template.yaml gives the function, and the parameter's value: the key "local-key" is the caller ana.
process.env.API_KEYS_PARAMETER ??= '/orders-api/api-keys';
const apiKeys = { 'local-key': { subject: 'ana', grants: ['orders:read', 'orders:write'] } };
mockClient(SSMClient)
  .on(GetParameterCommand, { Name: process.env.API_KEYS_PARAMETER, WithDecryption: true })
  .resolves({ Parameter: { Name: process.env.API_KEYS_PARAMETER, Type: 'SecureString', Value: JSON.stringify(apiKeys) } });

// Loaded once the stub is in place: the bundle's init (Lambda's init phase) runs now.
const { handler } = await import('../dist/handler.mjs');
let invocation = 0;
for (const file of process.argv.slice(2)) {
  const event = JSON.parse(readFileSync(file, 'utf8'));
  invocation += 1;
  const result = await handler(event, { awsRequestId: `local-${invocation}`, functionName: 'orders-api' });
  console.log(`${file}: ${result.statusCode} ${result.body}`);
}
