import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import type { SequencedEvent } from '../../lambda/ingest/tally/ports';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { storedEventOf } from '../../lambda/infrastructure/store/reports/event-items';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { COMPANY_PAIR_PREFIX, eventKey, PERSON_PAIR_PREFIX } from '../../lambda/infrastructure/store/schema';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import type { ControlDependencies, PersonStore } from '../../lambda/control/ports';
import { EVENTS, randomClient, SITE, validEvent } from '../support/ingest';
import {
  bearer,
  issueKey,
  issuePublishableKey,
  newFactoryId,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  type LocalApi,
} from '../support/local-api';
import { FactoryLookups, notifyIssueChange, type NotifierDependencies } from '../../lambda/alerts/notify';
import { newWebhookSecret } from '../../lambda/alerts/signature';
import { MemoryAlertStore } from '../../lambda/infrastructure/memory/memory-alert-store';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { CapturingQueue } from '../support/alerts';
import { tallied } from '../support/tally';
import { runScriptInProcess } from '../support/commands';
import { startControlRoom } from '../support/control-room';
import { endpoint } from '../support/local-api';

/**
 * Who is affected (issue 51, docs/report-issues.md#who-is-affected), end to end on DynamoDB Local: contacts created
 * through the contacts API with their company's domain, bug reports sent to the ingest API over HTTP, counted by the
 * run's tally (the stream consumer `npm start` runs), read through the control room's operations.
 */
const BY = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/operator' };

let api: LocalApi;
let control: ControlDependencies;
beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
  control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
});
afterAll(() => api.close());

async function ok(request: Record<string, unknown>) {
  const answer = await handleControlRequest(control, request, BY);
  expect([answer.status, answer.body.error]).toEqual([200, undefined]);
  return answer.body as Record<string, any>;
}

/** A factory whose backend pushes contacts (secret key) and whose site sends reports (publishable key). */
async function tenant() {
  const factoryId = newFactoryId('who');
  const auth = bearer((await issueKey(factoryId)).key);
  const { key } = await issuePublishableKey(factoryId, [SITE]);
  const page = { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}` };
  return {
    factoryId,
    upsert: async (body: Record<string, unknown>) => {
      const created = await api.request('POST', '/api/v1/contacts', { headers: auth, body });
      expect(created.status).toBe(201);
      return created.json.contact as { id: string; companyId: string };
    },
    events: async (events: unknown[], from = randomClient()) =>
      expect((await api.request('POST', EVENTS, { headers: page, body: JSON.stringify({ events }), localAddress: from })).status).toBe(202),
  };
}

test('three contacts at two companies and one visitor hit a bug: 3 people, 2 companies, 1 visitor on the issue, its companies, its contacts and its alerts; resolving tells the three; erasing one leaves 2 everywhere', async () => {
  const site = await tenant();
  const tag = randomUUID().slice(0, 8);
  const [ada, grace, linus] = [
    await site.upsert({ email: `ada@engines-${tag}.example`, companyDomain: `engines-${tag}.example` }),
    await site.upsert({ email: `grace@engines-${tag}.example`, companyDomain: `engines-${tag}.example` }),
    await site.upsert({ email: `linus@kernel-${tag}.example`, companyDomain: `kernel-${tag}.example` }),
  ];
  const bug = { message: `TypeError: cart is undefined ${tag}` };
  // Ada three times (two requests), the others once, an anonymous visitor twice from one address.
  await site.events([
    validEvent({ ...bug, reporter: { email: `ada@engines-${tag}.example` } }),
    validEvent({ ...bug, reporter: { email: `ADA@engines-${tag}.example` } }),
  ]);
  await site.events([
    validEvent({ ...bug, reporter: { email: `ada@engines-${tag}.example` } }),
    validEvent({ ...bug, reporter: { email: `grace@engines-${tag}.example` } }),
    validEvent({ ...bug, reporter: { email: `linus@kernel-${tag}.example`, name: 'Linus' } }),
  ]);
  const visitor = randomClient();
  await site.events([validEvent(bug), validEvent(bug)], visitor);
  await tallied();

  const { issues } = await ok({ operation: 'issues.list', factoryId: site.factoryId });
  expect(issues).toHaveLength(1);
  const issueId = issues[0].issueId as string;
  expect(issues[0]).toMatchObject({ count: 7, affected: { contacts: 3, companies: 2, visitors: 1, notInCrm: 0 } });

  const shown = await ok({ operation: 'issues.show', factoryId: site.factoryId, issueId });
  expect(shown.affected.companies).toEqual([
    { companyId: ada?.companyId, people: 2, events: 4, lastSeen: expect.any(String) },
    { companyId: linus?.companyId, people: 1, events: 1, lastSeen: expect.any(String) },
  ]);
  expect(shown.affected.people.map((person: { contactId: string; events: number; inCrm: boolean }) => [person.contactId, person.events, person.inCrm])).toEqual(
    [
      [ada?.id, 3, true],
      ...[
        [grace?.id, 1, true],
        [linus?.id, 1, true],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    ],
  );
  expect(JSON.stringify(shown.affected)).not.toContain('@');

  // The CRM's side: each company lists the issue, each contact shows it with its status and their share.
  for (const company of [ada?.companyId, linus?.companyId])
    expect(
      (await ok({ operation: 'companies.issues', factoryId: site.factoryId, companyId: company })).issues.map((issue: { issueId: string }) => issue.issueId),
    ).toEqual([issueId]);
  const adaPage = await ok({ operation: 'contacts.show', factoryId: site.factoryId, contactId: ada?.id });
  expect(adaPage.issues).toEqual([expect.objectContaining({ issueId, status: 'open', person: expect.objectContaining({ events: 3 }) })]);
  const exported = await ok({ operation: 'contacts.export-person', factoryId: site.factoryId, contactId: grace?.id });
  expect(exported.issues.map((issue: { issueId: string }) => issue.issueId)).toEqual([issueId]);

  // The alerts, as the notifier makes them from the issue's writes: issue.created with the counts and the biggest
  // companies; resolving sends issue.resolved with the three contact ids (ids, never emails).
  const alerts = new MemoryAlertStore();
  const destinationId = 'dst_0000000000000001';
  await alerts.addDestination({
    factoryId: site.factoryId,
    destinationId,
    url: 'https://hooks.example.com/in',
    types: [],
    createdAt: 'x',
    createdBy: 'arn:op',
    secret: newWebhookSecret(),
  });
  const issueStore = new DynamoIssueStore(testDoc(), tables.reports);
  const notifier: NotifierDependencies = { store: alerts, queue: new CapturingQueue(), linkBase: 'http://127.0.0.1:4000', affected: issueStore };
  const open = await issueStore.getIssue(site.factoryId, issueId, Date.now());
  await notifyIssueChange({ after: open }, notifier, new FactoryLookups(alerts));
  await ok({ operation: 'issues.resolve', factoryId: site.factoryId, issueId });
  await notifyIssueChange({ before: open, after: await issueStore.getIssue(site.factoryId, issueId, Date.now()) }, notifier, new FactoryLookups(alerts));
  const bodies = (await alerts.deliveries(site.factoryId, destinationId, { limit: 10 })).deliveries.map((delivery) => JSON.parse(delivery.body));
  const byType = new Map(bodies.map((body) => [body.type, body.data]));
  expect(byType.get('issue.created')).toMatchObject({
    affected: { contacts: 3, companies: 2, visitors: 1 },
    topCompanies: [
      { companyId: ada?.companyId, people: 2 },
      { companyId: linus?.companyId, people: 1 },
    ],
  });
  expect(byType.get('issue.resolved')?.contactIds).toEqual([ada?.id, grace?.id, linus?.id].sort());
  expect(JSON.stringify(bodies)).not.toContain('@');
  await ok({ operation: 'issues.reopen', factoryId: site.factoryId, issueId });

  // Erasing Linus: off every list, out of the counts; his company, whose only person he was, leaves the issue too.
  expect(await ok({ operation: 'contacts.erase', factoryId: site.factoryId, contactId: linus?.id })).toMatchObject({ erased: true, issues: 1 });
  const after = await ok({ operation: 'issues.show', factoryId: site.factoryId, issueId });
  expect(after.issue.affected).toEqual({ contacts: 2, companies: 1, visitors: 1, notInCrm: 0 });
  expect(after.affected.people.map((person: { contactId: string }) => person.contactId)).not.toContain(linus?.id);
  expect(after.affected.companies.map((company: { companyId: string }) => company.companyId)).toEqual([ada?.companyId]);
  expect((await ok({ operation: 'companies.issues', factoryId: site.factoryId, companyId: linus?.companyId })).issues).toEqual([]);
  expect((await ok({ operation: 'issues.list', factoryId: site.factoryId })).issues[0].affected).toMatchObject({ contacts: 2, companies: 1 });
});

test('a person known only by person key (an email never upserted as a contact) is erased from every issue they hit: `reports issue` and the issue page show them no more; export-person listed the issues before', async () => {
  const site = await tenant();
  const tag = randomUUID().slice(0, 8);
  const ada = await site.upsert({ email: `ada@engines-${tag}.example`, companyDomain: `engines-${tag}.example` });
  const stranger = `stranger@elsewhere-${tag}.example`;
  // The stranger hits two bugs (twice the first); Ada the first only.
  await site.events([
    validEvent({ message: `TypeError: cart is undefined ${tag}`, reporter: { email: stranger } }),
    validEvent({ message: `TypeError: cart is undefined ${tag}`, reporter: { email: stranger.toUpperCase() } }),
    validEvent({ message: `RangeError: bad page ${tag}`, reporter: { email: stranger } }),
    validEvent({ message: `TypeError: cart is undefined ${tag}`, reporter: { email: `ada@engines-${tag}.example` } }),
  ]);
  await tallied();
  const { issues } = await ok({ operation: 'issues.list', factoryId: site.factoryId });
  const cart = issues.find((issue: { title: string }) => issue.title.startsWith('TypeError')).issueId as string;
  const page = issues.find((issue: { title: string }) => issue.title.startsWith('RangeError')).issueId as string;

  const exported = await ok({ operation: 'contacts.export-person', factoryId: site.factoryId, email: stranger });
  expect(exported.contact).toBeUndefined();
  expect(exported.issues.map((issue: { issueId: string }) => issue.issueId).sort()).toEqual([cart, page].sort());
  const strangerId = exported.contactId as string;
  const personKey = exported.personKey as string;
  expect(personKey).toMatch(/^person_[0-9a-f]{32}$/);

  const env = { DYNAMODB_ENDPOINT: endpoint(), PLATFORM_NAME: 'Test Platform' };
  const shownByCli = async (issueId: string) => {
    const result = await runScriptInProcess('reports', ['issue', '--factory', site.factoryId, '--issue', issueId], env);
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as Record<string, any>;
  };
  const cartBefore = await shownByCli(cart);
  expect(cartBefore.issue.affected).toMatchObject({ contacts: 1, notInCrm: 1 });
  expect(cartBefore.affected.people.map((person: { contactId: string }) => person.contactId).sort()).toEqual([ada.id, strangerId].sort());

  // By the person key alone, as an erasure replayed from its audit line after a restore names them.
  const erased = await runScriptInProcess('control', ['contacts', 'erase', '--factory', site.factoryId, '--person-key', personKey], env);
  expect(erased.status).toBe(0);
  expect(JSON.parse(erased.stdout)).toMatchObject({ personKey, erased: true, contact: false, events: 3, issues: 2, complete: true });
  expect(erased.stdout).not.toContain(strangerId);

  for (const issueId of [cart, page]) {
    const shown = await shownByCli(issueId);
    expect(shown.affected.people.map((person: { contactId: string }) => person.contactId)).not.toContain(strangerId);
    expect(shown.issue.affected.notInCrm).toBe(0);
  }
  expect((await shownByCli(cart)).affected.people.map((person: { contactId: string }) => person.contactId)).toEqual([ada.id]);
  const room = await startControlRoom();
  try {
    for (const issueId of [cart, page]) {
      const html = await room.get(`/f/${site.factoryId}/reports/issues/${issueId}`);
      expect(html.status).toBe(200);
      expect(html.text).not.toContain(strangerId);
    }
    expect((await room.get(`/f/${site.factoryId}/reports/issues/${cart}`)).text).toContain(ada.id);
  } finally {
    await room.close();
  }
  // Nothing left to find: the same erasure again removes nothing, and the export lists no issue.
  expect(
    JSON.parse((await runScriptInProcess('control', ['contacts', 'erase', '--factory', site.factoryId, '--person-key', personKey], env)).stdout),
  ).toMatchObject({
    erased: false,
    issues: 0,
  });
  expect((await ok({ operation: 'contacts.export-person', factoryId: site.factoryId, email: stranger })).issues).toEqual([]);
});

/**
 * An erasure that overtakes the tally (docs/privacy.md#an-erasure-and-the-tally): the stream holds each report as it
 * was stored, reporter included, so a tally running after the erasure would count the person again unless it checks
 * the report as it is now. The run's tally counts the reports first, on its own shard; then the tally is run by hand
 * on the stream's image of the reports (read before the erasure), on a shard of its own, as a delivery the erasure
 * overtook or raced. These tests state what the lists show after (counts may keep a number).
 */
describe('an erasure that overtakes the tally', () => {
  /** The report as the stream recorded it on insert: its item as stored, before any erasure. */
  async function asStreamed(factoryId: string, eventId: string): Promise<SequencedEvent> {
    const { Item } = await testDoc().send(new GetCommand({ TableName: tables.reports, Key: { pk: eventKey(factoryId, eventId) }, ConsistentRead: true }));
    expect(Item).toBeDefined();
    return { seq: padSequence('1'), event: storedEventOf(Item as Record<string, unknown>) };
  }
  const tallyStore = () => new DynamoTallyStore(testDoc(), tables.reports, Date.now, tables.contacts);

  /** Ada (erased) and Grace of one company, one report each; what the lists show of them once both tallies are done. */
  async function twoColleagues() {
    const site = await tenant();
    const tag = randomUUID().slice(0, 8);
    const domain = `engines-${tag}.example`;
    const [ada, grace] = [
      await site.upsert({ email: `ada@${domain}`, companyDomain: domain }),
      await site.upsert({ email: `grace@${domain}`, companyDomain: domain }),
    ];
    const reports = [`ada@${domain}`, `grace@${domain}`].map((email) => validEvent({ message: `TypeError: cart is undefined ${tag}`, reporter: { email } }));
    // The run's tally counts them first, on its own shard, so that nothing it does later can mend what a test breaks;
    // Ada's first, so that she is the one who opened their company's pair.
    for (const report of reports) {
      await site.events([report]);
      await tallied();
    }
    const streamed = await Promise.all(reports.map((report) => asStreamed(site.factoryId, report.eventId)));
    const shown = async () => {
      await tallied();
      const { issues } = await ok({ operation: 'issues.list', factoryId: site.factoryId });
      const issueId = issues[0].issueId as string;
      const page = await ok({ operation: 'issues.show', factoryId: site.factoryId, issueId });
      return {
        issueId,
        people: page.affected.people.map((person: { contactId: string }) => person.contactId),
        companies: page.affected.companies.map((company: { companyId: string; people: number }) => [company.companyId, company.people]),
        companyIssues: (await ok({ operation: 'companies.issues', factoryId: site.factoryId, companyId: ada.companyId })).issues.map(
          (issue: { issueId: string }) => issue.issueId,
        ),
        adasIssues: (await ok({ operation: 'contacts.export-person', factoryId: site.factoryId, email: `ada@${domain}` })).issues,
      };
    };
    /** The lists show Grace alone, her company still on the issue, and none of Ada; no pair names Ada, the company's included. */
    const onlyGraceShown = async () => {
      const after = await shown();
      expect(after).toEqual({
        issueId: expect.any(String),
        people: [grace.id],
        companies: [[ada.companyId, 1]],
        companyIssues: [after.issueId],
        adasIssues: [],
      });
      const pairs = [
        `${PERSON_PAIR_PREFIX}${site.factoryId}#${after.issueId}#${ada.id}`,
        `${COMPANY_PAIR_PREFIX}${site.factoryId}#${after.issueId}#${ada.companyId}`,
      ];
      const items = await Promise.all(pairs.map(async (pk) => (await testDoc().send(new GetCommand({ TableName: tables.reports, Key: { pk } }))).Item));
      expect(items.map((item) => item && { openedBy: item.openedBy })).toEqual([undefined, { openedBy: grace.id }]);
    };
    return { site, grace, email: `ada@${domain}`, streamed, shown, onlyGraceShown };
  }

  test.each(['email', 'person key'])(
    'erased (by %s) before a delivery of her report is tallied, she is on no issue page, company page or export; her colleague keeps the company on the issue',
    async (by) => {
      const { site, email, streamed, onlyGraceShown } = await twoColleagues();
      const { personKey } = await ok({ operation: 'contacts.export-person', factoryId: site.factoryId, email });
      await ok({ operation: 'contacts.erase', factoryId: site.factoryId, ...(by === 'email' ? { email } : { personKey }) });
      await tallyBatch(tallyStore(), `shard-overtaken-${randomUUID()}`, streamed);
      await onlyGraceShown();
    },
  );

  test.each(['before', 'after'])('erased right after the tally wrote her pair, %s its check reads her report: no pair of hers survives', async (when) => {
    const { site, email, streamed, onlyGraceShown } = await twoColleagues();
    const store = tallyStore();
    const erasures: Record<string, unknown>[] = [];
    const erase = async () => erasures.push(await ok({ operation: 'contacts.erase', factoryId: site.factoryId, email }));
    // The fault: the erasure lands between the pairs' write and the check's read, or just after that read.
    const racing = Object.assign(Object.create(store) as DynamoTallyStore, {
      reportersNow: async (events: readonly StoredEvent[]) => {
        if (when === 'before') await erase();
        const now = await store.reportersNow(events);
        if (when === 'after') await erase();
        return now;
      },
    });
    await tallyBatch(racing, `shard-raced-${randomUUID()}`, streamed);
    // Her pair was there for the erasure to find (this tally's write, or the run's tally's before it).
    expect(erasures).toEqual([expect.objectContaining({ erased: true, issues: 1 })]);
    await onlyGraceShown();
  });

  test.each(['email', 'person key'])(
    'erased (by %s) with a whole tally falling between its look-up of her and its strip of her reports: no pair of hers survives',
    async (by) => {
      const { site, email, streamed, onlyGraceShown } = await twoColleagues();
      const { personKey } = await ok({ operation: 'contacts.export-person', factoryId: site.factoryId, email });
      const people = control.people as PersonStore;
      let tallies = 0;
      // The fault: the tally writes her pair and reads her report just before the erasure strips its first report.
      const racing: ControlDependencies = {
        ...control,
        people: Object.assign(Object.create(people) as PersonStore, {
          forgetReporter: async (...args: Parameters<PersonStore['forgetReporter']>) => {
            if (tallies++ === 0) await tallyBatch(tallyStore(), `shard-inside-${randomUUID()}`, streamed);
            return people.forgetReporter(...args);
          },
        }),
      };
      const erased = await handleControlRequest(
        racing,
        { operation: 'contacts.erase', factoryId: site.factoryId, ...(by === 'email' ? { email } : { personKey }) },
        BY,
      );
      expect([erased.status, tallies]).toEqual([200, 1]);
      await onlyGraceShown();
    },
  );

  test.each(['before', 'after'])('the batch delivered again, erased %s its first delivery, changes no count and brings no pair of hers back', async (when) => {
    const { site, grace, email, streamed, shown } = await twoColleagues();
    const shard = `shard-again-${randomUUID()}`;
    if (when === 'after') await tallyBatch(tallyStore(), shard, streamed);
    await ok({ operation: 'contacts.erase', factoryId: site.factoryId, email });
    if (when === 'before') await tallyBatch(tallyStore(), shard, streamed);
    const first = await shown();
    const counts = async () => {
      const { issues } = await ok({ operation: 'issues.list', factoryId: site.factoryId });
      return [issues[0].count, issues[0].affected];
    };
    const before = await counts();
    await tallyBatch(tallyStore(), shard, streamed);
    expect(await shown()).toEqual(first);
    expect(await counts()).toEqual(before);
    expect(first.people).toEqual([grace.id]);
    expect(first.adasIssues).toEqual([]);
  });
});
