import { withBatchMetrics } from '../../../../lambda/infrastructure/observability/batch-metrics';

/**
 * A consumer's batch counts (lambda/infrastructure/observability/batch-metrics.ts): what a
 * deployment's failed-items alarm reads, as CloudWatch would take it from
 * the function's output.
 */
const OPTIONS = { namespace: 'ContactsService/ContactsDev', service: 'contacts-alert-notifier', enabled: true, functionVersion: '8' };
const failingEvery = (ids: string[]) => async (event: { Records?: { id: string }[] }) => ({
  batchItemFailures: (event.Records ?? []).filter((r) => ids.includes(r.id)).map((r) => ({ itemIdentifier: r.id })),
});

test('writes one EMF line per batch: its items and failed items, under service and under service and functionVersion, in the given namespace', async () => {
  const lines: string[] = [];
  const handler = withBatchMetrics(failingEvery(['b']), OPTIONS, (line) => lines.push(line));
  const answer = await handler({ Records: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
  expect(lines).toHaveLength(1);
  const document = JSON.parse(lines[0]!);
  expect(document).toMatchObject({ service: 'contacts-alert-notifier', functionVersion: '8', BatchItems: 3, FailedBatchItems: 1 });
  expect(document._aws.CloudWatchMetrics).toEqual([
    {
      Namespace: 'ContactsService/ContactsDev',
      Dimensions: [['service'], ['service', 'functionVersion']],
      Metrics: [
        { Name: 'BatchItems', Unit: 'Count' },
        { Name: 'FailedBatchItems', Unit: 'Count' },
      ],
    },
  ]);
});

test('counts a batch with no failure as 0 failed items (a version that fails nothing has a series at 0)', async () => {
  const lines: string[] = [];
  await withBatchMetrics(failingEvery([]), OPTIONS, (line) => lines.push(line))({ Records: [{ id: 'a' }] });
  expect(JSON.parse(lines[0]!)).toMatchObject({ BatchItems: 1, FailedBatchItems: 0 });
});

test('writes nothing for an event that is not a batch, nor when metrics are off', async () => {
  const lines: string[] = [];
  await withBatchMetrics(failingEvery([]), OPTIONS, (line) => lines.push(line))({});
  await withBatchMetrics(failingEvery([]), { ...OPTIONS, enabled: false }, (line) => lines.push(line))({ Records: [{ id: 'a' }] });
  expect(lines).toEqual([]);
});

test('outside Lambda (no version), counts under service alone', async () => {
  const lines: string[] = [];
  const { functionVersion: _, ...local } = OPTIONS;
  await withBatchMetrics(failingEvery(['a']), local, (line) => lines.push(line))({ Records: [{ id: 'a' }] });
  const document = JSON.parse(lines[0]!);
  expect(document._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
  expect(document).not.toHaveProperty('functionVersion');
});
