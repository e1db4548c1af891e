/**
 * The measured side of tools/bench/dynamo-client-cpu.ts, run bundled (no TypeScript loader): the same DynamoDB
 * calls through the SDK's document client and through the lean one the Lambda assets carry, alternating in rounds,
 * the process's CPU time per call. Prints one JSON line.
 */
import { GetCommand as SdkGet, PutCommand as SdkPut, UpdateCommand as SdkUpdate } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf, dynamoClientOptions } from '../../lambda/infrastructure/store/dynamo-client';
import { DynamoDBClient as LeanClient } from '../../lambda/infrastructure/store/lean-dynamodb/dynamodb-client';
import { DynamoDBDocumentClient as LeanDocument, GetCommand, PutCommand, UpdateCommand } from '../../lambda/infrastructure/store/lean-dynamodb/document-client';

const [endpoint, table, callsArg, roundsArg] = process.argv.slice(2) as [string, string, string, string];
const calls = Number(callsArg);
const rounds = Number(roundsArg);
const config = { ...DEFAULT_DYNAMO_CONFIG, connectionTimeoutMs: 5000, requestTimeoutMs: 10_000, endpoint };

type Send = (command: unknown) => Promise<unknown>;
const sdkDoc = documentClientOf(createDynamoClient(config));
const leanDoc = LeanDocument.from(new LeanClient(dynamoClientOptions(config)), { marshallOptions: { removeUndefinedValues: true } });
const clients: Record<string, { send: Send; Put: typeof SdkPut; Get: typeof SdkGet; Update: typeof SdkUpdate }> = {
  sdk: { send: (command) => sdkDoc.send(command as never), Put: SdkPut, Get: SdkGet, Update: SdkUpdate },
  lean: {
    send: (command) => leanDoc.send(command as never),
    Put: PutCommand as unknown as typeof SdkPut,
    Get: GetCommand as unknown as typeof SdkGet,
    Update: UpdateCommand as unknown as typeof SdkUpdate,
  },
};

/** The hot path's three kinds of call: an event's conditional PutItem, a limiter's UpdateItem, a GetItem. */
async function oneOfEach(client: (typeof clients)[string]): Promise<void> {
  const pk = `bench#${randomUUID()}`;
  await client.send(
    new client.Put({
      TableName: table,
      Item: { pk, expiresAt: 1_900_000_000, d: new Uint8Array(600).fill(7), writeToken: randomUUID() },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
  await client.send(
    new client.Update({
      TableName: table,
      Key: { pk },
      UpdateExpression: 'SET #t = if_not_exists(#t, :zero) + :one',
      ExpressionAttributeNames: { '#t': 'tat' },
      ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await client.send(new client.Get({ TableName: table, Key: { pk } }));
}

(async () => {
  const cpuPerCall: Record<string, number[]> = { sdk: [], lean: [] };
  // Warm-up: the JIT settles on both before anything counts.
  for (const client of Object.values(clients)) for (let i = 0; i < calls; i += 1) await oneOfEach(client);
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, client] of round % 2 === 0 ? Object.entries(clients) : Object.entries(clients).reverse()) {
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i += 1) await oneOfEach(client);
      const used = process.cpuUsage(before);
      (cpuPerCall[name] as number[]).push((used.user + used.system) / (calls * 3));
    }
  }
  process.stdout.write(`${JSON.stringify(cpuPerCall)}\n`);
  sdkDoc.destroy();
  leanDoc.destroy();
})();
