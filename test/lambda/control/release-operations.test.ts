import { handleControlRequest } from '../../../lambda/control/handle-request';
import type { Issue, IssueStore } from '../../../lambda/ingest/issues/issue';
import type { ControlDependencies } from '../../../lambda/control/ports';
import { releaseRefId, zeroCounters, type ReleaseRef } from '../../../lambda/ingest/sessions/release-health';
import type { ReleasePosition, ReleaseRecord, ReleaseStore } from '../../../lambda/ingest/sessions/ports';
import { CONTROL_CALLER, memoryControlRoom } from '../../support/control-memory';

/** The release operations over a store of fixed releases; on DynamoDB Local: test/sessions/release-health.test.ts. */
const room = memoryControlRoom();
const HOUR = 3600_000;
const NOW = Date.parse('2031-03-01T12:30:00Z');
const nowHour = Math.floor(NOW / HOUR);

const record = (release: string, environment: string, firstSeen: string, started: number, crashed: number): ReleaseRecord => ({
  factoryId: 'fac_rel',
  release,
  environment,
  firstSeen,
  lastSeen: firstSeen,
  counters: { ...zeroCounters(), started, crashed },
});
// Newest first, as the store lists them.
const RELEASES = [
  record('web@3', 'production', '2031-03-01T12:00:00.000Z', 10, 1),
  record('web@2', 'staging', '2031-03-01T11:00:00.000Z', 5, 0),
  record('web@2', 'production', '2031-02-28T10:00:00.000Z', 30, 3),
];

const store: ReleaseStore = {
  listReleases: async (_factoryId, { limit, after }) => {
    const from = after ? RELEASES.findIndex((r) => r.firstSeen === after.firstSeen) + 1 : 0;
    const page = RELEASES.slice(from, from + limit);
    const last = page[page.length - 1];
    return { releases: page, ...(from + limit < RELEASES.length && last ? { next: { firstSeen: last.firstSeen, key: last.release } as ReleasePosition } : {}) };
  },
  findRelease: async (_factoryId, ref) => RELEASES.find((r) => releaseRefId(r) === releaseRefId(ref)),
  // In the last day: web@3 started 10, web@2 (production) 10 of its 30; nothing older read.
  releaseHours: async (_factoryId, refs: readonly ReleaseRef[], hours) => {
    const answer = new Map();
    for (const ref of refs) {
      const started = ref.release === 'web@3' ? 10 : ref.environment === 'production' ? 10 : 0;
      if (started > 0 && hours.includes(nowHour))
        answer.set(releaseRefId(ref), new Map([[nowHour, { ...zeroCounters(), started, crashed: ref.release === 'web@3' ? 1 : 0 }]]));
    }
    return answer;
  },
  factoryHours: async (_factoryId, hours) => new Map(hours.includes(nowHour) ? [[nowHour, 20]] : []),
};
const issue = (issueId: string, fields: Partial<Issue>): Issue =>
  ({
    issueId,
    factoryId: 'fac_rel',
    title: issueId,
    status: 'open',
    count: 1,
    firstSeen: '2031-03-01T11:30:00.000Z',
    lastSeen: '2031-03-01T12:00:00.000Z',
    ...fields,
  }) as Issue;
const ISSUES = [
  issue('iss_new', { firstRelease: 'web@2', lastRelease: 'web@2' }),
  issue('iss_back', { firstRelease: 'web@1', lastRelease: 'web@2', regressions: 1, regressedAt: '2031-03-01T11:40:00.000Z' }),
  issue('iss_other', { firstRelease: 'web@1', lastRelease: 'web@1' }),
];
const issues = { listIssues: async () => ISSUES } as unknown as IssueStore;
const deps: ControlDependencies = { ...room.deps, issues, releases: store, now: () => new Date(NOW) };
const call = (request: Record<string, unknown>) => handleControlRequest(deps, { factoryId: 'fac_rel', ...request }, { principal: CONTROL_CALLER });

test('releases.list: newest first with crash-free rates and adoption over the last day, a cursor while more remain', async () => {
  const first = await call({ operation: 'releases.list', limit: 2 });
  expect(first.status).toBe(200);
  expect(first.body.releases).toEqual([
    expect.objectContaining({ release: 'web@3', environment: 'production', sessions: 10, crashed: 1, crashFreeSessions: 0.9, adoption: 0.5 }),
    expect.objectContaining({ release: 'web@2', environment: 'staging', sessions: 5, crashFreeSessions: 1, adoption: 0 }),
  ]);
  const second = await call({ operation: 'releases.list', limit: 2, cursor: first.body.cursor });
  expect((second.body.releases as { release: string; environment: string }[]).map((r) => `${r.release} ${r.environment}`)).toEqual(['web@2 production']);
  expect(second.body.cursor).toBeUndefined();
});

test('releases.list: an environment keeps only its releases', async () => {
  const answer = await call({ operation: 'releases.list', environment: 'production' });
  expect((answer.body.releases as { release: string }[]).map((r) => r.release)).toEqual(['web@3', 'web@2']);
});

test('releases.list: a cursor of another list or factory is a 400', async () => {
  expect((await call({ operation: 'releases.list', cursor: 'bm90IG91cnM' })).status).toBe(400);
});

test('releases.show: the newest release of that name without an environment, the one named with it; its hours; 404 for none', async () => {
  const newest = await call({ operation: 'releases.show', release: 'web@2' });
  expect(newest.body).toMatchObject({ release: 'web@2', environment: 'staging' });
  const named = await call({ operation: 'releases.show', release: 'web@2', environment: 'production' });
  expect(named.body).toMatchObject({ release: 'web@2', environment: 'production', sessions: 30, crashFreeSessions: 0.9 });
  expect((named.body.newIssues as Issue[]).map((i) => i.issueId)).toEqual(['iss_new']);
  expect((named.body.regressedIssues as Issue[]).map((i) => i.issueId)).toEqual(['iss_back']);
  expect(named.body.hours).toEqual([expect.objectContaining({ hour: new Date(nowHour * HOUR).toISOString(), started: 10 })]);
  const missing = await call({ operation: 'releases.show', release: 'web@9' });
  expect(missing).toMatchObject({ status: 404, body: { error: expect.stringContaining('web@9') } });
});

test('releases.show: a release name too long is a 400 naming the limit', async () => {
  const answer = await call({ operation: 'releases.show', release: 'x'.repeat(201) });
  expect(answer).toMatchObject({ status: 400, body: { error: expect.stringContaining('at most 200') } });
});
