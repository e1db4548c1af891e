import { handleControlRequest } from '../../../lambda/control/handle-request';
import type { ControlDependencies } from '../../../lambda/control/ports';
import type { FeedbackReader, FeedbackView } from '../../../lambda/ingest/feedback/stored-feedback';
import { CONTROL_CALLER, memoryControlRoom } from '../../support/control-memory';

/** `feedback.list` over a reader of fixed feedback; on DynamoDB Local: test/control/feedback-people.test.ts. */
const room = memoryControlRoom();
const view = (n: number, issueId?: string): FeedbackView => ({
  feedbackId: `0000000${n}-0000-4000-8000-000000000000`,
  receivedAt: `2031-03-01T12:0${n}:00.000Z`,
  message: `note ${n}`,
  source: 'feedback',
  ...(issueId ? { issueId } : {}),
});
const ALL = [view(3, 'iss_00000000000000000001'), view(2), view(1, 'iss_00000000000000000001')];
const asked: unknown[] = [];
const reader: FeedbackReader = {
  list: async (_factoryId, { limit, cursor }) => {
    asked.push({ limit, cursor });
    const start = cursor === undefined ? 0 : Number(cursor);
    const items = ALL.slice(start, start + limit);
    return { items, ...(start + limit < ALL.length ? { next: String(start + limit) } : {}) };
  },
  ofIssue: async (_factoryId, issueId, { limit }) => ALL.filter((one) => one.issueId === issueId).slice(0, limit),
};
const deps: ControlDependencies = { ...room.deps, feedback: reader };
const call = (request: Record<string, unknown>, using = deps) =>
  handleControlRequest(using, { factoryId: 'fac_fb', operation: 'feedback.list', ...request }, { principal: CONTROL_CALLER });

test("a factory's feedback: newest first, 50 unless a limit is given, and a cursor while more remain", async () => {
  const first = await call({ limit: 2 });
  expect(first.body).toEqual({ feedback: [ALL[0], ALL[1]], cursor: '2' });
  expect((await call({ cursor: '2' })).body).toEqual({ feedback: [ALL[2]] });
  expect(asked).toEqual([
    { limit: 2, cursor: undefined },
    { limit: 50, cursor: '2' },
  ]);
  expect(first.audit).toMatchObject({ count: 2, more: true });
});

test("an issue's feedback, one page; a cursor with an issue, a limit out of range or an issue id of another shape is a 400", async () => {
  expect((await call({ issueId: 'iss_00000000000000000001' })).body).toEqual({ feedback: [ALL[0], ALL[2]] });
  expect((await call({ issueId: 'iss_00000000000000000001', cursor: '2' })).status).toBe(400);
  expect((await call({ limit: 201 })).status).toBe(400);
  expect((await call({ issueId: 'nope' })).status).toBe(400);
});

test('a control room without a reports table says feedback is not wired (500)', async () => {
  const answer = await call({}, room.deps);
  expect([answer.status, answer.body.error]).toEqual([500, expect.stringContaining('not wired')]);
});
