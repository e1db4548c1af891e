import fc from 'fast-check';
import type { Contact } from '../../lambda/contacts/domain/contact';
import { mergeContact } from '../../lambda/contacts/domain/merge-contact';
import type { ContactWrite } from '../../lambda/contacts/domain/ports';
import { DynamoContactStore } from '../../lambda/infrastructure/store/contacts/dynamo-contact-store';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The DynamoDB store writes the merge rule as one UpdateItem expression;
 * mergeContact states it as a function. Any sequence of writes must leave
 * the same contact in both, and `created` must be true exactly for the first.
 */
const store = new DynamoContactStore(testDoc(), tables.contacts);

const text = fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined });
const writeArb = fc.record({
  fields: fc.record({ name: text, title: text, phone: text, page: text }, { requiredKeys: [] }),
  source: fc.option(fc.constantFrom('api', 'external_crm', 'ads', 'manual' as const), { nil: undefined }),
  companyId: fc.option(fc.constantFrom('co_0000000000000001', 'co_0000000000000002'), { nil: undefined }),
});

test('the DynamoDB store and mergeContact agree on every sequence of writes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(writeArb, { minLength: 1, maxLength: 5 }), async (writes) => {
      const factoryId = newFactoryId('agree');
      const base = { factoryId, id: 'ct_00000000000000aa', email: 'a@example.com' };
      let expected: Contact | undefined;
      for (const [i, w] of writes.entries()) {
        const fields = Object.fromEntries(Object.entries(w.fields).filter(([, value]) => value !== undefined));
        const write: ContactWrite = { ...base, fields, source: w.source, companyId: w.companyId, now: `2026-11-25T10:00:0${i}.000Z`, creationToken: `t${i}` };
        const { contact, created } = await store.writeContact(write);
        expected = mergeContact(expected, write);
        expect(created).toBe(i === 0);
        expect(contact).toEqual(expected);
      }
    }),
    { numRuns: 25 },
  );
});
