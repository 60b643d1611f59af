import { usageError } from '../../errors/index.js';
/**
 * The AWS SDK's DynamoDB command classes, loaded when the store first sends rather than when it is imported.
 * A Lambda bundle leaves the SDK out (the runtime brings it), and a bundler hoists the SDK imports of every
 * module it packs to the top of the bundle: had this store imported the SDK statically, a function that packs
 * it but counts elsewhere (or nowhere) would load the whole DynamoDB client on every cold start. A process that
 * uses the store has loaded the SDK already for its `DynamoDBClient`, so this comes from the module cache.
 */
type DynamoDBCommands = Pick<typeof import('@aws-sdk/client-dynamodb'), 'DeleteItemCommand' | 'GetItemCommand' | 'UpdateItemCommand'>;

let loaded: DynamoDBCommands | undefined;
let loading: Promise<DynamoDBCommands> | undefined;

/** The command classes: at once once loaded, else after loading them (one import, shared by every caller). */
export function dynamoDBCommands(): DynamoDBCommands | Promise<DynamoDBCommands> {
  return (
    loaded ??
    (loading ??= import('@aws-sdk/client-dynamodb').then(
      (sdk) => (loaded = sdk),
      (error: unknown) => {
        loading = undefined;
        throw usageError(
          'TRELLIS_MISSING_DEPENDENCY',
          `the DynamoDB rate-limit store needs @aws-sdk/client-dynamodb (version 3.400 or later): ${error instanceof Error ? error.message : String(error)}`,
          Error,
          error,
        );
      },
    ))
  );
}
