import { DIMENSIONS, METRIC, METRICS_NAMESPACE, serviceNameFromEnv } from './names';

/** What one request did, as the metrics count it. */
export interface RequestOutcome {
  /** Route template (`GET /api/v1/contacts/{id}`), `… (other method)` or `unmatched`: never the raw path. */
  route: string;
  status: number;
  /** Set for an upsert that succeeded. */
  upsert?: 'created' | 'updated';
  /** Further counts of this request by metric name (the ingest API's events accepted, duplicates…). */
  counts?: Record<string, number>;
  /** The DynamoDB calls the request made, when they were counted. */
  dynamo?: { calls: number; latenciesMs: readonly number[] };
}

export interface MetricsOptions {
  namespace: string;
  service: string;
  /** False: nothing is written (the local server and the tests). */
  enabled: boolean;
}

/** The values Powertools reads as true in `POWERTOOLS_METRICS_DISABLED`. */
const TRUTHY = new Set(['1', 'y', 'yes', 't', 'true', 'on']);

/**
 * Read once per container. The variables are Powertools Metrics' own
 * (`POWERTOOLS_METRICS_NAMESPACE`, `POWERTOOLS_SERVICE_NAME`,
 * `POWERTOOLS_METRICS_DISABLED`), read the same way, so the stack, the local
 * commands and anyone used to Powertools set them as before.
 */
export function metricsOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): MetricsOptions {
  return {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE?.trim() || METRICS_NAMESPACE,
    service: serviceNameFromEnv(env),
    enabled: !TRUTHY.has((env.POWERTOOLS_METRICS_DISABLED ?? '').trim().toLowerCase()),
  };
}

const COUNT = 'Count';
const MILLISECONDS = 'Milliseconds';
const flag = (condition: boolean) => (condition ? 1 : 0);

type Definition = { Name: string; Unit: string };

/**
 * The request's metrics as one CloudWatch embedded metric format (EMF)
 * document with two directives sharing its values: the per-request totals
 * under `service` alone (every request counts 0 or 1 in each, so an Average
 * is a rate; the alarms divide them), and `Requests` under `service`,
 * `route` and `statusClass`. One document and one write per request, where
 * Powertools Metrics needed two (one dimension set per instance).
 */
export function requestMetricsDocument(outcome: RequestOutcome, options: Pick<MetricsOptions, 'namespace' | 'service'>, timestamp: number) {
  const { status, upsert, counts, dynamo } = outcome;
  const totals: Definition[] = [
    { Name: METRIC.requestsTotal, Unit: COUNT },
    { Name: METRIC.serverErrors, Unit: COUNT },
    { Name: METRIC.storageUnavailable, Unit: COUNT },
    { Name: METRIC.rateLimited, Unit: COUNT },
  ];
  const values: Record<string, number | readonly number[]> = {
    [METRIC.requestsTotal]: 1,
    [METRIC.serverErrors]: flag(status >= 500),
    [METRIC.storageUnavailable]: flag(status === 503),
    [METRIC.rateLimited]: flag(status === 429),
  };
  if (upsert) {
    const name = upsert === 'created' ? METRIC.contactsCreated : METRIC.contactsUpdated;
    totals.push({ Name: name, Unit: COUNT });
    values[name] = 1;
  }
  for (const [name, value] of Object.entries(counts ?? {})) {
    totals.push({ Name: name, Unit: COUNT });
    values[name] = value;
  }
  if (dynamo) {
    totals.push({ Name: METRIC.dynamoCalls, Unit: COUNT });
    values[METRIC.dynamoCalls] = dynamo.calls;
    // EMF takes a list of values for one metric: one per call.
    if (dynamo.latenciesMs.length > 0) {
      totals.push({ Name: METRIC.dynamoLatency, Unit: MILLISECONDS });
      values[METRIC.dynamoLatency] = dynamo.latenciesMs;
    }
  }
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        { Namespace: options.namespace, Dimensions: [[DIMENSIONS.service]], Metrics: totals },
        {
          Namespace: options.namespace,
          Dimensions: [[DIMENSIONS.service, DIMENSIONS.route, DIMENSIONS.statusClass]],
          Metrics: [{ Name: METRIC.requests, Unit: COUNT }],
        },
      ],
    },
    [DIMENSIONS.service]: options.service,
    [DIMENSIONS.route]: outcome.route,
    [DIMENSIONS.statusClass]: `${Math.floor(status / 100)}xx`,
    ...values,
    [METRIC.requests]: 1,
  };
}

/**
 * Writes request metrics as EMF lines on stdout, which CloudWatch Logs turns
 * into metrics: no API call, nothing on the request's path but one write.
 * Straight to the stream, not console.log, which the Lambda runtime prefixes
 * with a timestamp and request id (a prefixed line is no longer EMF).
 */
export class RequestMetrics {
  constructor(
    private readonly options: MetricsOptions = metricsOptionsFromEnv(),
    private readonly write: (line: string) => void = (line) => process.stdout.write(line),
  ) {}

  publish(outcome: RequestOutcome): void {
    if (!this.options.enabled) return;
    this.write(`${JSON.stringify(requestMetricsDocument(outcome, this.options, Date.now()))}\n`);
  }
}
