import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { SuppressionKeys } from '../../lambda/contacts/domain/vendor-suppression';
import type { StoredEmail } from '../../lambda/kernel/email';
import { DynamoSuppressionSecret } from '../../lambda/infrastructure/store/keys/dynamo-person-secret';
import { DynamoVendorRecords } from '../../lambda/infrastructure/store/reference/dynamo-vendor-records';
import { RECORDS_PER_WRITE, ReferenceWriter } from '../../lambda/infrastructure/store/reference/reference-writer';
import { tables, testDoc } from '../support/local-api';

/**
 * The reference table's one writer (lambda/infrastructure/store/reference/reference-writer.ts)
 * and the erasure's side of it, on DynamoDB Local: a transaction refused for
 * some of its people is sent again without exactly those.
 */
const keys = new SuppressionKeys(new DynamoSuppressionSecret(testDoc(), tables.keys));
const writer = new ReferenceWriter(testDoc(), tables.reference, keys);
const vendor = new DynamoVendorRecords(testDoc(), tables.reference, keys);
const stored = async (email: string) => (await testDoc().send(new GetCommand({ TableName: tables.reference, Key: { email }, ConsistentRead: true }))).Item;
const people = (count: number) => Array.from({ length: count }, (_, i) => `p${i}.${randomUUID().slice(0, 8)}@vendor.example` as StoredEmail);

test('a full transaction with suppressed people scattered through it writes every other record and names exactly the suppressed', async () => {
  const emails = people(RECORDS_PER_WRITE);
  const erased = [emails[0], emails[17], emails[RECORDS_PER_WRITE - 1]] as StoredEmail[];
  for (const email of erased) expect(await vendor.erase(email, '2026-11-27T10:00:00.000Z')).toBe(false);

  const result = await writer.write(emails.map((email) => ({ email, title: 'Chemist' })));

  expect(result.written).toBe(RECORDS_PER_WRITE - erased.length);
  expect(result.suppressed.sort()).toEqual([...erased].sort());
  for (const email of erased) expect(await stored(email)).toBeUndefined();
  expect(await stored(emails[1] as string)).toEqual({ email: emails[1], title: 'Chemist' });
});

test('an erasure keeps the first suppression as it was and deletes the record once; the suppression holds no email', async () => {
  const [email] = people(1) as [StoredEmail];
  await writer.write([{ email, location: 'Leiden' }]);

  const first = await vendor.erase(email, '2026-11-27T10:00:00.000Z');
  const second = await vendor.erase(email, '2026-11-27T11:00:00.000Z');

  expect([first, second]).toEqual([true, false]);
  const key = await keys.keyOf(email.toUpperCase());
  expect(key).toMatch(/^suppressed#[0-9a-f]{32}$/);
  expect(await stored(key)).toEqual({ email: key, suppressedAt: '2026-11-27T10:00:00.000Z' });
});

test('more records than one transaction takes is refused before any call', async () => {
  await expect(writer.write(people(RECORDS_PER_WRITE + 1).map((email) => ({ email })))).rejects.toThrow(`at most ${RECORDS_PER_WRITE} records`);
});
