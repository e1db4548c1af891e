import { upsertCounts } from '../../../../lambda/contacts/api/upsert-counts';
import { METRIC } from '../../../../lambda/infrastructure/observability/names';
import { proxyEvent } from '../../../support/events';

const counts = (httpMethod: string, status: number) => upsertCounts({ event: proxyEvent({ httpMethod }), status } as Parameters<typeof upsertCounts>[0]);

describe("the contacts API's own metrics", () => {
  test('a POST answered 201 counts a contact created, 200 a contact updated', () => {
    expect(counts('POST', 201)).toEqual({ [METRIC.contactsCreated]: 1 });
    expect(counts('POST', 200)).toEqual({ [METRIC.contactsUpdated]: 1 });
  });

  test('a refused POST and every GET count nothing', () => {
    for (const [method, status] of [
      ['POST', 422],
      ['POST', 429],
      ['POST', 503],
      ['GET', 200],
    ] as const)
      expect(counts(method, status)).toBeUndefined();
  });
});
