import { controlRoomWithFixedAnswers } from '../support/control-room';

/**
 * The releases tab over HTTP (docs/release-health.md#reading-it), with the operations replaced by fixed answers: the
 * list's figures as percentages and its cursor, a release's first week drawn as the issues' trends are, beside the
 * release before it, and a hostile release name shown as text.
 */
const { answers, asked, room } = controlRoomWithFixedAnswers();

beforeAll(async () => {
  answers.set('keys.list', { status: 200, body: { factoryId: 'fac_rel', keys: [{ keyId: 'key_0123456789abcdef', type: 'secret', status: 'active' }] } });
  await room().get('/f/fac_rel/reports/issues');
});

const summary = (release: string, firstSeen: string) => ({
  release,
  environment: 'production',
  firstSeen,
  lastSeen: firstSeen,
  sessions: 200,
  exited: 0,
  errored: 4,
  crashed: 3,
  abnormal: 0,
  crashFreeSessions: 0.985,
  users: 150,
  crashedUsers: 2,
  crashFreeUsers: 0.9866,
  usersExact: false,
  adoption: 0.4,
});
const HOSTILE = 'web@<img src=x onerror=alert(1)>';

test('the releases tab lists each release with its crash-free rates and adoption as percentages, newest first, paged', async () => {
  answers.set('releases.list', {
    status: 200,
    body: { releases: [summary(HOSTILE, '2026-11-26T10:00:00.000Z'), summary('web@1', '2026-11-20T10:00:00.000Z')], cursor: 'next' },
  });
  const page = (await room().get('/f/fac_rel/reports/releases')).text;
  expect(page).toContain('98.50 %');
  expect(page).toContain('about 98.66 %');
  expect(page).toContain('40.00 %');
  expect(page).not.toContain('<img');
  expect(page).toContain('web@&lt;img');
  expect(page).toMatch(/rel="next" href="[^"]*cursor=next/);
  expect(asked.at(-1)).toMatchObject({ operation: 'releases.list', factoryId: 'fac_rel' });
});

test("a release's page draws its first 7 days' sessions beside the release before it, each bar's crash-free rate in its words", async () => {
  const first = summary('web@2', '2026-11-26T10:00:00.000Z');
  const hours = [
    { hour: '2026-11-26T10:00:00.000Z', started: 100, errored: 2, crashed: 2, abnormal: 0, exited: 0, crashFreeSessions: 0.98 },
    { hour: '2026-11-27T11:00:00.000Z', started: 100, errored: 2, crashed: 1, abnormal: 0, exited: 0, crashFreeSessions: 0.99 },
  ];
  answers.set('releases.list', { status: 200, body: { releases: [first, summary('web@1', '2026-11-20T10:00:00.000Z')] } });
  answers.set('releases.show', { status: 200, body: { ...first, hours, newIssues: [], regressedIssues: [] } });
  const page = (await room().get('/f/fac_rel/reports/releases?release=web%402&environment=production')).text;
  const charts = page.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
  expect(charts).toHaveLength(2);
  expect(charts[0]?.match(/<rect /g)).toHaveLength(7);
  expect(charts[0]).toContain('<title>2026-11-26: 100 sessions, 2 crashed (crash-free 98.00 %)</title>');
  expect(charts[0]).toContain('<title>2026-11-27: 100 sessions, 1 crashed (crash-free 99.00 %)</title>');
  expect(page).toContain('The release before:');
  expect(asked.filter((request) => request.operation === 'releases.show').at(-1)).toMatchObject({ release: 'web@1', environment: 'production' });
});

test("a release that sent no sessions is its 404 with the operation's words", async () => {
  answers.set('releases.show', { status: 404, body: { error: 'no release "web@9" in fac_rel has sent sessions' } });
  const answer = await room().get('/f/fac_rel/reports/releases?release=web%409');
  expect(answer.status).toBe(404);
  expect(answer.text).toContain('no release &quot;web@9&quot;');
});
