/**
 * npm run bench:dynamo-client: the CPU one DynamoDB call costs the caller through the SDK's document client and
 * through the lean client the Lambda assets carry instead (lambda/infrastructure/store/lean-dynamodb/), the figure
 * behind that choice (docs/performance.md#the-dynamodb-client). Both clients in one bundled process (esbuild, as
 * the assets are built; no TypeScript loader), the same PutItem, UpdateItem and GetItem against an in-memory
 * DynamoDB Local of its own, alternating in rounds; the median CPU per call of each. DynamoDB Local's CPU (another
 * process) is not counted.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal } from '../../local/harness/dynamodb-local';
import { freePort } from '../../local/harness/ports';
import { bundleEntry } from './bundle-entry';
import { describeMachine, finishMachine } from './machine';
import { median } from './stats';

const USAGE = `usage: npm run bench:dynamo-client [-- --calls N --rounds N]

The CPU per DynamoDB call of the SDK's document client and of the lean client
the Lambda assets carry, in one bundled process against DynamoDB Local.

  --calls N    calls of each kind per client and round (default 500)
  --rounds N   rounds, the clients alternating (default 6)`;

const TABLE = 'bench-dynamo-client';

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { calls: { type: 'string' }, rounds: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const calls = positiveIntArg('--calls', values.calls, 100_000) ?? 500;
  const rounds = positiveIntArg('--rounds', values.rounds, 100) ?? 6;
  const machine = describeMachine(dynamoDbLocalVersion());
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const dir = mkdtempSync(join(tmpdir(), 'bench-dynamo-client-'));
  try {
    const admin = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, requestTimeoutMs: 10_000, endpoint: dynamo.endpoint });
    await admin.send(
      new CreateTableCommand({
        TableName: TABLE,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    admin.destroy();
    const driver = await bundleEntry(join(__dirname, 'dynamo-client-driver.ts'), join(dir, 'driver.cjs'));
    process.stderr.write(`${rounds} rounds of ${calls} × (PutItem, UpdateItem, GetItem) per client …\n`);
    const run = spawnSync(process.execPath, [driver, dynamo.endpoint, TABLE, String(calls), String(rounds)], {
      encoding: 'utf8',
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    if (run.status !== 0) throw new Error(`the driver failed: ${run.stderr}`);
    const perCall = JSON.parse(run.stdout.trim().split('\n').pop() as string) as Record<'sdk' | 'lean', number[]>;
    const done = finishMachine(machine);
    const [sdk, lean] = [median(perCall.sdk), median(perCall.lean)];
    process.stdout.write(
      [
        `Measured ${done.date} on ${done.cores} × ${done.cpuModel}, Node ${done.node}; 1-minute load average ${done.loadAtStart.toFixed(1)} at the start, ${done.loadAtEnd?.toFixed(1)} at the end.`,
        `CPU per call, median of ${rounds} rounds (µs): SDK document client ${sdk.toFixed(0)} (${perCall.sdk.map((us) => us.toFixed(0)).join(', ')}), lean client ${lean.toFixed(0)} (${perCall.lean.map((us) => us.toFixed(0)).join(', ')}): ${(sdk / lean).toFixed(1)} ×.`,
        '',
      ].join('\n'),
    );
  } finally {
    await dynamo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
