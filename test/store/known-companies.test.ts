import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { newCallLog, withCallLog } from '../../lambda/infrastructure/observability/call-log';
import { DynamoContactStore } from '../../lambda/infrastructure/store/contacts/dynamo-contact-store';
import { companyItems } from '../support/items';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * A container remembers the companies it has seen exist: a warm upsert naming
 * one skips the company write (2 rounds instead of 3). Companies are never
 * deleted through the API, so what it remembers stays true.
 */
const company = (factoryId: string, name: string) => ({
  factoryId,
  id: 'co_00000000000000aa',
  domain: 'acme.io',
  name,
  createdAt: '2026-11-25T10:00:00.000Z',
});
const log = newCallLog;

test('a container writes a company once; naming it again makes no call, and another container finds it with one refused write', async () => {
  const factoryId = newFactoryId('known');
  const container = new DynamoContactStore(testDoc(), tables.contacts);
  const [first, again, elsewhere] = [log(), log(), log()];
  await withCallLog(first, () => container.createCompanyIfMissing(company(factoryId, 'Acme')));
  await withCallLog(again, () => container.createCompanyIfMissing(company(factoryId, 'Acme again')));
  await withCallLog(elsewhere, () => new DynamoContactStore(testDoc(), tables.contacts).createCompanyIfMissing(company(factoryId, 'Acme elsewhere')));
  expect([first.calls, again.calls, elsewhere.calls]).toEqual([1, 0, 1]);
  expect((await companyItems(factoryId)).map((item) => item.name)).toEqual(['Acme']);
});

test('a create that failed is not remembered: the same container writes the company on the retry', async () => {
  const factoryId = newFactoryId('known');
  const real = testDoc();
  let down = true;
  // The store's client, failing while `down` (a fault injected in front of DynamoDB Local).
  const doc = {
    send: (command: Parameters<typeof real.send>[0]) =>
      down ? Promise.reject(Object.assign(new Error('socket hang up'), { name: 'TimeoutError' })) : real.send(command),
  } as unknown as DynamoDBDocumentClient;
  const container = new DynamoContactStore(doc, tables.contacts);
  await expect(container.createCompanyIfMissing(company(factoryId, 'Acme'))).rejects.toThrow(/unavailable|TimeoutError/);
  down = false;
  const retry = log();
  await withCallLog(retry, () => container.createCompanyIfMissing(company(factoryId, 'Acme')));
  expect(retry.calls).toBe(1);
  expect((await companyItems(factoryId)).map((item) => item.name)).toEqual(['Acme']);
});
