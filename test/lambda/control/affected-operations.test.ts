import { randomUUID } from 'node:crypto';
import { MemoryReportStore } from '../../../lambda/infrastructure/memory/memory-report-store';
import type { StoredEvent } from '../../../lambda/ingest/issues/stored-event';
import { CONTROL_FACTORY, memoryControlRoom } from '../../support/control-memory';

/** The CRM's side of who an issue affects, on in-memory ports as the function runs them: a company's issues, a contact's. */
const room = memoryControlRoom();
const AT = Date.parse('2026-11-21T08:00:00.000Z');

const event = (message: string, email: string, n: number): StoredEvent => ({
  factoryId: CONTROL_FACTORY,
  keyId: 'key_rules',
  origin: 'https://a.example',
  receivedAt: new Date(AT + n * 1000).toISOString(),
  expiresAt: Math.floor(AT / 1000) + 86_400 * 30,
  writeToken: `w${n}`,
  eventId: randomUUID(),
  type: 'error',
  message,
  fingerprint: [message],
  issueId: `iss_${String(message.length).padStart(20, '0')}`,
  reporter: { email },
});

test("a company lists the issues its people hit, open ones first; a contact's page lists theirs with status and share", async () => {
  const ada = await room.upsert({ email: 'ada@engines.example', companyDomain: 'engines.example' });
  const bob = await room.upsert({ email: 'bob@engines.example', companyDomain: 'engines.example' });
  const reports = new MemoryReportStore(async (factoryId, contactId) => {
    const contact = await room.store.getContact(factoryId, contactId);
    return contact ? { inCrm: true, ...(contact.companyId === undefined ? {} : { companyId: contact.companyId }) } : { inCrm: false };
  });
  room.deps = { ...room.deps, issues: reports };
  await reports.putEvents([event('older bug', ada.email, 1), event('newer bug!', bob.email, 2), event('newer bug!', bob.email, 3)]);
  const [older, newer] = ['older bug', 'newer bug!'].map((message) => `iss_${String(message.length).padStart(20, '0')}`);
  expect((await room.control({ operation: 'issues.resolve', issueId: newer })).status).toBe(200);

  const company = await room.control({ operation: 'companies.issues', companyId: ada.companyId });
  expect(company.status).toBe(200);
  expect((company.body.issues as { issueId: string; status: string }[]).map((issue) => [issue.issueId, issue.status])).toEqual([
    [older, 'open'],
    [newer, 'resolved'],
  ]);
  const page = await room.control({ operation: 'contacts.show', contactId: bob.id });
  expect(page.body.issues).toEqual([expect.objectContaining({ issueId: newer, status: 'resolved', person: expect.objectContaining({ events: 2 }) })]);
  expect((await room.control({ operation: 'companies.issues', companyId: 'co_0000000000000000' })).body).toEqual({ issues: [], complete: true });
  expect((await room.control({ operation: 'companies.issues', companyId: 'engines' })).status).toBe(400);
});
