import { MemoryReportStore } from '../../../lambda/infrastructure/memory/memory-report-store';
import { CONTROL_FACTORY, memoryControlRoom } from '../../support/control-memory';

/**
 * The issue operations (list, show, status changes) on in-memory ports, as the function runs them.
 */
const room = memoryControlRoom();

describe('the issue list on the in-memory store', () => {
  test('pages of 7 with the cursor reach each of 40 issues once, most recently seen first (three a second, ties by id, descending), and by events', async () => {
    const reports = new MemoryReportStore();
    room.deps = { ...room.deps, issues: reports };
    const at = Date.parse('2026-11-21T08:00:00.000Z');
    await reports.putEvents(
      Array.from({ length: 40 }, (_, i) => i).flatMap((i) =>
        Array.from({ length: (i % 4) + 1 }, (_, n) => ({
          factoryId: CONTROL_FACTORY,
          keyId: 'key_rules',
          origin: 'https://a.example',
          receivedAt: new Date(at + Math.floor(i / 3) * 1000).toISOString(),
          expiresAt: Math.floor(at / 1000) + 86_400 * 30,
          writeToken: `w${i}-${n}`,
          eventId: `00000000-0000-4000-8000-${String(i * 10 + n).padStart(12, '0')}`,
          type: 'error',
          message: `issue ${i}`,
          fingerprint: [`issue ${i}`],
          issueId: `iss_${String(i).padStart(20, '0')}`,
        })),
      ),
    );
    for (const sort of ['lastSeen', 'events'] as const) {
      const seen: { issueId: string; count: number; lastSeen: string }[] = [];
      let cursor: string | undefined;
      do {
        const { status, body } = await room.control({ operation: 'issues.list', sort, limit: 7, ...(cursor ? { cursor } : {}) });
        expect(status).toBe(200);
        seen.push(...(body.issues as typeof seen));
        cursor = body.cursor as string | undefined;
      } while (cursor);
      const key = (issue: { count: number; lastSeen: string }) => (sort === 'events' ? issue.count : issue.lastSeen);
      const expected = [...seen].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : a.issueId < b.issueId ? 1 : -1));
      expect(new Set(seen.map((issue) => issue.issueId)).size).toBe(40);
      expect(seen.map((issue) => issue.issueId)).toEqual(expected.map((issue) => issue.issueId));
    }
  });
});

describe('one issue', () => {
  const ISSUE = 'iss_00000000000000000001';
  async function oneIssue() {
    const reports = new MemoryReportStore();
    room.deps = { ...room.deps, issues: reports };
    const at = Date.parse('2026-11-21T08:00:00.000Z');
    await reports.putEvents(
      [0, 1].map((n) => ({
        factoryId: CONTROL_FACTORY,
        keyId: 'key_rules',
        origin: 'https://a.example',
        receivedAt: new Date(at + n * 1000).toISOString(),
        expiresAt: Math.floor(at / 1000) + 86_400 * 30,
        writeToken: `w${n}`,
        eventId: `00000000-0000-4000-8000-00000000000${n}`,
        type: 'error',
        message: 'TypeError: x is undefined',
        fingerprint: ['TypeError: x is undefined'],
        issueId: ISSUE,
      })),
    );
  }

  test('issues.show answers the issue, its trend and its latest events, newest first', async () => {
    await oneIssue();
    const { status, body } = await room.control({ operation: 'issues.show', issueId: ISSUE });
    expect(status).toBe(200);
    expect(body.issue).toMatchObject({ issueId: ISSUE, count: 2, status: 'open' });
    expect((body.events as { eventId: string }[]).map((event) => event.eventId)).toEqual([
      '00000000-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(body.trend).toEqual({ hourly: expect.any(Array), daily: expect.any(Array) });
  });

  test('resolving records who and when, answers the status it had, and a second resolve changes nothing more', async () => {
    await oneIssue();
    const resolved = await room.control({ operation: 'issues.resolve', issueId: ISSUE });
    expect(resolved).toMatchObject({
      status: 200,
      body: { previousStatus: 'open', issue: { status: 'resolved', statusChangedBy: expect.stringMatching(/^arn:/) } },
      audit: { from: 'open', to: 'resolved' },
    });
    expect((await room.control({ operation: 'issues.resolve', issueId: ISSUE })).body.previousStatus).toBe('resolved');
    expect((await room.control({ operation: 'issues.reopen', issueId: ISSUE })).body).toMatchObject({ previousStatus: 'resolved', issue: { status: 'open' } });
  });

  test('an issue that is not there is 404 saying it may have expired', async () => {
    expect(await room.control({ operation: 'issues.show', issueId: ISSUE })).toMatchObject({
      status: 404,
      body: { error: expect.stringMatching(/^no issue iss_0+1 in fac_rules \(it may have expired/) },
    });
    expect((await room.control({ operation: 'issues.ignore', issueId: ISSUE })).status).toBe(404);
  });

  test('a search is audited by its length, never its text', async () => {
    await oneIssue();
    const answer = await room.control({ operation: 'issues.list', search: 'undefined' });
    expect(answer.audit).toMatchObject({ searchLength: 9, count: 1 });
    expect(JSON.stringify(answer.audit)).not.toContain('undefined"');
  });
});
