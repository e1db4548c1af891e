import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The delay added to every DynamoDB call; changed between requests. */
export interface DelaySetting {
  ms: number;
}

/**
 * Adds `setting.ms` to every DynamoDB call made through `client`, as a
 * slower network would: once per call, before it is sent. The number of
 * sequential rounds then shows in the latency seen from outside.
 */
export function installDelay(client: DynamoDBClient, setting: DelaySetting): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      if (setting.ms > 0) await sleep(setting.ms);
      return next(args);
    },
    // After serialization, outside the retry loop: one delay per call, not per attempt.
    { step: 'build', name: 'benchDelay', override: true },
  );
}
