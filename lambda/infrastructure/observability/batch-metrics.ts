import { DIMENSIONS, METRIC } from './names';
import { metricsOptionsFromEnv, type MetricsOptions } from './metrics';

/** What a stream or queue consumer answers: the records it failed, which Lambda hands over again. */
interface BatchAnswer {
  batchItemFailures?: readonly unknown[];
}

const COUNT = 'Count';

/**
 * One batch's counts as a CloudWatch embedded metric format line:
 * `BatchItems` and `FailedBatchItems` under `service`, and on Lambda under
 * `service` and `functionVersion` too, which a deployment's failed-items
 * alarm reads (lib/gradual-deployment.ts). A consumer that catches its
 * errors and answers failed items raises no Lambda `Errors`: this is how its
 * failures are seen.
 */
export function batchMetricsLine(
  counts: { items: number; failed: number },
  options: Pick<MetricsOptions, 'namespace' | 'service' | 'functionVersion'>,
  timestamp: number,
): string {
  const dimensions: string[][] = [[DIMENSIONS.service]];
  if (options.functionVersion !== undefined) dimensions.push([DIMENSIONS.service, DIMENSIONS.functionVersion]);
  const document = {
    _aws: {
      Timestamp: Math.trunc(timestamp),
      CloudWatchMetrics: [
        {
          Namespace: options.namespace,
          Dimensions: dimensions,
          Metrics: [
            { Name: METRIC.batchItems, Unit: COUNT },
            { Name: METRIC.failedBatchItems, Unit: COUNT },
          ],
        },
      ],
    },
    [DIMENSIONS.service]: options.service,
    ...(options.functionVersion === undefined ? {} : { [DIMENSIONS.functionVersion]: options.functionVersion }),
    [METRIC.batchItems]: counts.items,
    [METRIC.failedBatchItems]: counts.failed,
  };
  return `${JSON.stringify(document)}\n`;
}

/**
 * A consumer's handler that also writes its batch's counts (one line on
 * stdout per batch; nothing when metrics are off). An event that is not a
 * batch (a pre-traffic self-check) is passed through uncounted.
 */
export function withBatchMetrics<E, C extends unknown[], R extends BatchAnswer>(
  handler: (event: E, ...rest: C) => Promise<R>,
  options: MetricsOptions = metricsOptionsFromEnv(),
  write: (line: string) => void = (line) => process.stdout.write(line),
): (event: E, ...rest: C) => Promise<R> {
  return async (event, ...rest) => {
    const answer = await handler(event, ...rest);
    const records = (event as { Records?: unknown } | null)?.Records;
    if (options.enabled && Array.isArray(records)) {
      write(batchMetricsLine({ items: records.length, failed: answer?.batchItemFailures?.length ?? 0 }, options, Date.now()));
    }
    return answer;
  };
}
