import { handleControlRequest } from '../../../lambda/control/handle-request';
import type { ControlDependencies, ReportFeedPort, ReportPageQuery } from '../../../lambda/control/ports';
import { REPORTS_DEFAULT } from '../../../lambda/control/report-operations';
import { InvalidCursorError } from '../../../lambda/kernel/errors';
import { CONTROL_CALLER, memoryControlRoom } from '../../support/control-memory';

/** The report operations over a feed that answers fixed pages; on DynamoDB Local: test/control/key-and-report-operations.test.ts. */
const room = memoryControlRoom();
const EVENT = {
  eventId: '00000000-0000-4000-8000-000000000001',
  type: 'error',
  message: 'boom',
  receivedAt: '2026-11-21T09:00:00.000Z',
  factoryId: 'fac_reports',
};
let asked: { kind: string; query: ReportPageQuery }[];
let deps: ControlDependencies;
const feed: ReportFeedPort = {
  page: async (_factoryId, kind, query) => {
    asked.push({ kind, query });
    if (query.cursor === 'foreign') throw new InvalidCursorError('cursor is not one this service returned for this list');
    return kind === 'events' ? { items: [EVENT], next: 'next-page' } : { items: [{ requestId: 'r1', title: 'Dark mode' }] };
  },
  get: async (_factoryId, kind, id) => (kind === 'events' && id === EVENT.eventId ? EVENT : undefined),
};
beforeEach(() => {
  asked = [];
  deps = { ...room.deps, reports: feed };
});
const call = (request: Record<string, unknown>) => handleControlRequest(deps, { factoryId: 'fac_reports', ...request }, { principal: CONTROL_CALLER });

describe('the feeds', () => {
  test('reports.events: a page newest first with its cursor, 50 by default, filtered by type when asked', async () => {
    const page = await call({ operation: 'reports.events', type: 'bug_report' });
    expect(page).toMatchObject({ status: 200, body: { factoryId: 'fac_reports', events: [EVENT], cursor: 'next-page' }, audit: { count: 1, more: true } });
    expect(asked[0]).toMatchObject({ kind: 'events', query: { limit: REPORTS_DEFAULT, type: 'bug_report' } });
  });

  test('reports.feature-requests: its own feed, no cursor at the end', async () => {
    expect((await call({ operation: 'reports.feature-requests' })).body).toEqual({
      factoryId: 'fac_reports',
      featureRequests: [{ requestId: 'r1', title: 'Dark mode' }],
    });
  });

  test("a type that is not a type's shape, a page over 100 and another list's cursor are 400s", async () => {
    expect((await call({ operation: 'reports.events', type: 'Error!' })).status).toBe(400);
    expect((await call({ operation: 'reports.events', limit: 101 })).status).toBe(400);
    expect(await call({ operation: 'reports.events', cursor: 'foreign' })).toMatchObject({
      status: 400,
      body: { error: 'cursor is not one this service returned for this list' },
    });
  });
});

describe('one report', () => {
  test('reports.event answers the event, its id in the audit; one that is not there is 404', async () => {
    expect(await call({ operation: 'reports.event', eventId: EVENT.eventId })).toMatchObject({
      status: 200,
      body: { event: EVENT },
      audit: { eventId: EVENT.eventId },
    });
    expect(await call({ operation: 'reports.event', eventId: '00000000-0000-4000-8000-000000000009' })).toMatchObject({
      status: 404,
      body: { error: 'no event 00000000-0000-4000-8000-000000000009 in fac_reports' },
    });
    expect((await call({ operation: 'reports.feature-request', requestId: '00000000-0000-4000-8000-000000000009' })).status).toBe(404);
  });
});

test('a control room without the reports table answers 500 saying so', async () => {
  deps = { ...room.deps };
  expect(await call({ operation: 'reports.events' })).toMatchObject({
    status: 500,
    body: { error: expect.stringMatching(/report operations are not configured/) },
  });
});
