import type { Destination } from '../../../lambda/alerts/ports';
import { FactoryLookups, fanOut, notifyIssueChange, type NotifierDependencies } from '../../../lambda/alerts/notify';
import { snapshotOf } from '../../../lambda/alerts/alert';
import { newWebhookSecret } from '../../../lambda/alerts/signature';
import type { Issue } from '../../../lambda/ingest/issues/issue';
import { MemoryAlertStore } from '../../../lambda/infrastructure/memory/memory-alert-store';
import { CapturingQueue } from '../../support/alerts';

/** An issue's write sent on its way as alerts, on the in-memory alert store; end to end on DynamoDB Local: test/alerts/delivery.test.ts. */
const NOW = new Date('2026-11-21T09:05:00.000Z');
const issue = (factoryId: string, fields: Partial<Issue> = {}): Issue =>
  ({
    factoryId,
    issueId: 'iss_00000000000000000001',
    title: 'TypeError: x is undefined',
    status: 'open',
    count: 1,
    firstSeen: '2026-11-21T09:00:00.000Z',
    lastSeen: '2026-11-21T09:00:00.000Z',
    ...fields,
  }) as Issue;
const destination = (factoryId: string, id: string, fields: Partial<Destination> = {}): Destination => ({
  factoryId,
  destinationId: `dst_${id.padStart(16, '0')}`,
  url: 'https://hooks.example.com/in',
  types: [],
  createdAt: NOW.toISOString(),
  createdBy: 'arn:op',
  secret: newWebhookSecret(),
  ...fields,
});

async function notifier(...destinations: Destination[]) {
  const store = new MemoryAlertStore();
  for (const added of destinations) await store.addDestination(added);
  const queue = new CapturingQueue();
  const published: { subject: string; message: string }[] = [];
  const deps: NotifierDependencies = {
    store,
    queue,
    linkBase: 'https://control.example.com',
    now: () => NOW,
    topic: { publish: async (subject, message) => void published.push({ subject, message }) },
  };
  return { store, queue, published, deps, lookups: new FactoryLookups(store) };
}

describe("an issue's write", () => {
  test('a new issue: one alert stored, one delivery per destination that takes it, its first attempt queued, a line on the platform topic', async () => {
    const { store, queue, published, deps, lookups } = await notifier(
      destination('fac_a', '1'),
      destination('fac_a', '2', { types: ['issue.spiking'] }),
      destination('fac_a', '3', { disabled: { at: 'x', by: 'op', reason: 'off' } }),
    );
    const stored = await notifyIssueChange({ after: issue('fac_a') }, deps, lookups);
    expect(stored).toEqual(['new:iss_00000000000000000001:2026-11-21T09:00:00.000Z']);
    expect(queue.take().map(({ message }) => message.destinationId)).toEqual([destination('fac_a', '1').destinationId]);
    const { deliveries } = await store.deliveries('fac_a', destination('fac_a', '1').destinationId, { limit: 10 });
    expect(JSON.parse(deliveries[0]!.body).data.link).toBe('https://control.example.com/f/fac_a/reports/issues/iss_00000000000000000001');
    expect(published).toEqual([{ subject: 'New issue in fac_a: TypeError: x is undefined', message: deliveries[0]!.body }]);
  });

  test('the same write seen again (a stream record redelivered) alerts nothing new and queues nothing', async () => {
    const { queue, deps, lookups } = await notifier(destination('fac_a', '1'));
    await notifyIssueChange({ after: issue('fac_a') }, deps, lookups);
    queue.take();
    expect(await notifyIssueChange({ after: issue('fac_a') }, deps, lookups)).toEqual([]);
    expect(queue.take()).toEqual([]);
  });

  test('a write with nothing to alert (a count moved), a removal, and the canary factory on the topic: nothing, or nothing published', async () => {
    const { published, deps, lookups } = await notifier();
    const before = issue('fac_a');
    expect(await notifyIssueChange({ before, after: { ...before, count: 2 } as Issue }, deps, lookups)).toEqual([]);
    expect(await notifyIssueChange({ before, after: undefined }, deps, lookups)).toEqual([]);
    expect(await notifyIssueChange({ after: issue('fac_canary') }, deps, lookups)).toHaveLength(1);
    expect(published).toEqual([]);
  });
});

test('a fan-out cut short is finished by the next: deliveries not yet attempted are queued again, one per destination', async () => {
  const { store, queue, deps, lookups } = await notifier(destination('fac_a', '1'));
  const alert = { alertId: 'new:x', type: 'issue.created' as const, occurredAt: NOW.toISOString(), issue: snapshotOf(issue('fac_a')) };
  // The first run stored the alert and the delivery, then stopped before marking it fanned out.
  await store.recordAlert({
    factoryId: 'fac_a',
    alertId: 'new:x',
    type: 'issue.created',
    issueId: alert.issue.issueId,
    occurredAt: alert.occurredAt,
    at: NOW.toISOString(),
    expiresAt: 0,
  });
  expect(await fanOut(alert, deps, lookups)).toBe(false);
  expect(queue.take()).toHaveLength(1);
  expect(await fanOut(alert, deps, lookups)).toBe(false);
  expect(queue.take()).toEqual([]);
});

test("a batch reads a factory's settings and destinations once", async () => {
  const { store } = await notifier(destination('fac_a', '1'));
  let reads = 0;
  const counting = Object.create(store) as MemoryAlertStore;
  counting.destinations = async (factoryId) => {
    reads += 1;
    return store.destinations(factoryId);
  };
  const lookups = new FactoryLookups(counting);
  await Promise.all([lookups.destinations('fac_a'), lookups.destinations('fac_a'), lookups.settings('fac_a'), lookups.settings('fac_a')]);
  expect(reads).toBe(1);
});

describe('alerts that say who', () => {
  const people = [
    { contactId: 'ct_000000000000000b', inCrm: true, companyId: 'co_0000000000000001', events: 3, firstSeen: 'x', lastSeen: 'x' },
    { contactId: 'ct_000000000000000a', inCrm: true, companyId: 'co_0000000000000001', events: 1, firstSeen: 'x', lastSeen: 'x' },
    { contactId: 'ct_000000000000000c', inCrm: true, companyId: 'co_0000000000000002', events: 1, firstSeen: 'x', lastSeen: 'x' },
  ];
  const reader = { peopleOf: async () => ({ items: people, complete: true }) };
  const affected = { contacts: 3, notInCrm: 0, companies: 2 };

  test('a new issue carries its affected counts and its biggest companies by people; no email', async () => {
    const { store, deps, lookups } = await notifier(destination('fac_w', '1'));
    await notifyIssueChange({ after: issue('fac_w', { affected }) }, { ...deps, affected: reader }, lookups);
    const { deliveries } = await store.deliveries('fac_w', destination('fac_w', '1').destinationId, { limit: 10 });
    const { data } = JSON.parse(deliveries[0]!.body);
    expect([data.affected, data.topCompanies, data.contactIds]).toEqual([
      { contacts: 3, companies: 2, visitors: 0, notInCrm: 0 },
      [
        { companyId: 'co_0000000000000001', people: 2 },
        { companyId: 'co_0000000000000002', people: 1 },
      ],
      undefined,
    ]);
  });

  test('resolving an issue sends issue.resolved once, with the affected contact ids', async () => {
    const { store, deps, published, lookups } = await notifier(destination('fac_r', '1'));
    const open = issue('fac_r', { affected, count: 4 });
    const resolved = { ...open, status: 'resolved' as const, statusChangedAt: '2026-11-21T09:04:00.000Z', statusChangedBy: 'arn:op' };
    const stored = await notifyIssueChange({ before: open, after: resolved }, { ...deps, affected: reader }, lookups);
    expect(stored).toEqual(['resolved:iss_00000000000000000001:2026-11-21T09:00:00.000Z:2026-11-21T09:04:00.000Z']);
    // The same write seen again, or a later write of the resolved issue: nothing more.
    expect(await notifyIssueChange({ before: open, after: resolved }, { ...deps, affected: reader }, lookups)).toEqual([]);
    expect(await notifyIssueChange({ before: resolved, after: { ...resolved, count: 4 } }, { ...deps, affected: reader }, lookups)).toEqual([]);
    const { deliveries } = await store.deliveries('fac_r', destination('fac_r', '1').destinationId, { limit: 10 });
    expect(deliveries.map((delivery) => delivery.type)).toEqual(['issue.resolved']);
    const body = JSON.parse(deliveries[0]!.body);
    expect([body.type, body.data.status, body.data.contactIds, body.data.affected.contacts]).toEqual([
      'issue.resolved',
      'resolved',
      ['ct_000000000000000a', 'ct_000000000000000b', 'ct_000000000000000c'],
      3,
    ]);
    expect(published[0]?.subject).toBe('Resolved in fac_r: TypeError: x is undefined');
  });
});

describe("a release hour's write", () => {
  const HOUR = Math.floor(NOW.getTime() / 3_600_000);
  const hour = (started: number, crashed: number) => ({ factoryId: 'fac_r', environment: 'production', release: 'web@9', hour: HOUR, started, crashed });

  test('turning unhealthy: one release.unhealthy to the destinations taking it (not those taking issue alerts only), its line on the platform topic naming the release', async () => {
    const { queue, published, deps, lookups } = await notifier(
      destination('fac_r', '1', { types: ['release.unhealthy', 'release.recovered'] }),
      destination('fac_r', '2', { types: ['issue.created'] }),
    );
    const change = { releaseHour: { before: hour(90, 0), after: hour(120, 30), at: '2026-11-21T09:04:10.000Z' } };
    const stored = await notifyIssueChange(change, deps, lookups);
    expect(stored).toEqual([expect.stringMatching(new RegExp(`^release-unhealthy:[0-9a-f]{24}:${HOUR}$`))]);
    expect(queue.take().map(({ message }) => message.destinationId)).toEqual([destination('fac_r', '1').destinationId]);
    expect(published).toHaveLength(1);
    expect(published[0]?.subject).toBe('Unhealthy release in fac_r: web@9 (production)');
    expect(JSON.parse(published[0]?.message ?? '{}')).toMatchObject({
      type: 'release.unhealthy',
      timestamp: '2026-11-21T09:04:10.000Z',
      data: { sessions: 120, crashed: 30 },
    });
    // The same record again: stored already, nothing sent.
    expect(await notifyIssueChange(change, deps, lookups)).toEqual([]);
    expect(published).toHaveLength(1);
  });

  test('turning healthy with no unhealthy spell open sends nothing; after one, one release.recovered', async () => {
    const { published, deps, lookups } = await notifier(destination('fac_r', '1'));
    expect(await notifyIssueChange({ releaseHour: { before: hour(90, 0), after: hour(120, 0) } }, deps, lookups)).toEqual([]);
    await notifyIssueChange({ releaseHour: { before: hour(120, 0), after: hour(130, 10) } }, deps, lookups);
    const recovered = await notifyIssueChange({ releaseHour: { before: hour(130, 10), after: hour(1100, 10) } }, deps, lookups);
    expect(recovered).toEqual([expect.stringMatching(new RegExp(`^release-recovered:[0-9a-f]{24}:${HOUR}$`))]);
    expect(published.map((line) => line.subject)).toEqual(['Unhealthy release in fac_r: web@9 (production)', 'Recovered release in fac_r: web@9 (production)']);
  });
});
