import type { DynamoDBRecord } from 'aws-lambda';
import { createNotifierHandler } from '../../../lambda/alerts/notifier';
import type { IssueChange } from '../../../lambda/alerts/notify';
import type { Issue } from '../../../lambda/ingest/issues/issue';
import { JsonLogger } from '../../../lambda/infrastructure/observability/logger';
import { MemoryAlertStore } from '../../../lambda/infrastructure/memory/memory-alert-store';
import { CapturingQueue } from '../../support/alerts';

/** The notifier's batch: records in order, a failure answered by its sequence number so the batch is retried from it. */
const lines: string[] = [];
const logger = new JsonLogger({ service: 'test', level: 'DEBUG', out: (line) => lines.push(line), err: (line) => lines.push(line) });
const record = (n: number): DynamoDBRecord => ({ eventID: `e${n}`, dynamodb: { SequenceNumber: String(100 + n) } });
const newIssue = (n: number): IssueChange => ({
  after: {
    factoryId: 'fac_a',
    issueId: `iss_${String(n).padStart(20, '0')}`,
    title: 't',
    status: 'open',
    count: 1,
    firstSeen: '2026-11-21T09:00:00.000Z',
    lastSeen: '2026-11-21T09:00:00.000Z',
  } as Issue,
});

beforeEach(() => {
  lines.length = 0;
});

test("each record's alerts are stored once, in order, and the batch answers no failure", async () => {
  const store = new MemoryAlertStore();
  const handler = createNotifierHandler({ store, queue: new CapturingQueue(), linkBase: 'http://x' }, (r) => newIssue(Number(r.eventID?.slice(1))), logger);
  expect(await handler({ Records: [record(1), record(2)] })).toEqual({ batchItemFailures: [] });
  expect(lines.filter((line) => JSON.parse(line).message === 'alert').map((line) => JSON.parse(line).eventId)).toEqual(['e1', 'e2']);
});

test('a record that fails stops the batch there: its sequence number is answered, and the records after it are not read', async () => {
  const seen: string[] = [];
  const handler = createNotifierHandler(
    { store: new MemoryAlertStore(), queue: new CapturingQueue(), linkBase: 'http://x' },
    (r) => {
      seen.push(r.eventID as string);
      if (r.eventID === 'e2') throw new Error('not an issue image');
      return {};
    },
    logger,
  );
  expect(await handler({ Records: [record(1), record(2), record(3)] })).toEqual({ batchItemFailures: [{ itemIdentifier: '102' }] });
  expect(seen).toEqual(['e1', 'e2']);
  expect(lines.some((line) => JSON.parse(line).level === 'ERROR' && /retried from this record/.test(JSON.parse(line).message))).toBe(true);
});
