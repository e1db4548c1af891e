import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { issueKey, newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * A BatchGetItem whose keys DynamoDB keeps leaving unprocessed (a table
 * throttled for long): the fault is injected around the real client, which
 * still runs every call. Like every other storage failure, it must become
 * the retry-safe 503, never a 500.
 */
function leavingKeysUnprocessed(doc: DynamoDBDocumentClient): { doc: DynamoDBDocumentClient; batchCalls: () => number } {
  let calls = 0;
  const faulty = new Proxy(doc, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: unknown) => {
        const answer = await target.send(command as never);
        if (!(command instanceof BatchGetCommand)) return answer;
        calls += 1;
        const requested = command.input.RequestItems ?? {};
        return { ...answer, Responses: {}, UnprocessedKeys: requested };
      };
    },
  });
  return { doc: faulty, batchCalls: () => calls };
}

test('keys that stay unprocessed end the operation with the retry-safe 503, after a bounded number of calls', async () => {
  const factoryId = newFactoryId('unproc');
  await issueKey(factoryId);
  const faulty = leavingKeysUnprocessed(testDoc());
  const deps = controlDependencies(faulty.doc, tables, 'Test Platform', { keys: tables.keys });
  const answer = await handleControlRequest(deps, { operation: 'keys.list', factoryId }, { principal: 'test' });
  expect(answer).toMatchObject({
    status: 503,
    body: { error: 'storage unavailable: retrying the same request is safe' },
    audit: { errorClass: 'StorageUnavailableError', error: expect.stringMatching(/^BatchGetItem \(keys\) failed: .*unprocessed/) },
  });
  expect(faulty.batchCalls()).toBe(9);
}, 30_000);
