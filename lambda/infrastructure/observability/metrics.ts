import { DIMENSIONS, METRIC, METRICS_NAMESPACE, serviceNameFromEnv } from './names';

/** What one request did, as the metrics count it. */
export interface RequestOutcome {
  /** Route template (`GET /api/v1/contacts/{id}`), `… (other method)` or `unmatched`: never the raw path. */
  route: string;
  status: number;
  /** What the API counted of this request, by metric name (contacts created, events accepted…): each API names its own. */
  counts?: Record<string, number>;
  /** The DynamoDB calls the request made, when they were counted. */
  dynamo?: { calls: number; latenciesMs: readonly number[] };
}

export interface MetricsOptions {
  namespace: string;
  service: string;
  /** False: nothing is written (the local server and the tests). */
  enabled: boolean;
  /**
   * The function version answering (Lambda's `AWS_LAMBDA_FUNCTION_VERSION`,
   * a number behind the `live` alias): when set, the request's totals and
   * 5xx are also counted under `service` and `functionVersion`.
   */
  functionVersion?: string;
}

/** The values Powertools reads as true in `POWERTOOLS_METRICS_DISABLED`. */
const TRUTHY = new Set(['1', 'y', 'yes', 't', 'true', 'on']);

/**
 * Read once per container. The variables are Powertools Metrics' own
 * (`POWERTOOLS_METRICS_NAMESPACE`, `POWERTOOLS_SERVICE_NAME`,
 * `POWERTOOLS_METRICS_DISABLED`), read the same way, so the stack, the local
 * commands and anyone used to Powertools set them as before.
 */
export function metricsOptionsFromEnv(env: NodeJS.ProcessEnv = process.env, fallbackService?: string): MetricsOptions {
  const options: MetricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE?.trim() || METRICS_NAMESPACE,
    service: serviceNameFromEnv(env, fallbackService),
    enabled: !TRUTHY.has((env.POWERTOOLS_METRICS_DISABLED ?? '').trim().toLowerCase()),
  };
  const functionVersion = env.AWS_LAMBDA_FUNCTION_VERSION?.trim();
  if (functionVersion) options.functionVersion = functionVersion;
  return options;
}

const COUNT = 'Count';
const MILLISECONDS = 'Milliseconds';
const flag = (condition: boolean) => (condition ? 1 : 0);

type Definition = { Name: string; Unit: string };

/**
 * The `CloudWatchMetrics` part of a document as JSON text: it depends only on
 * the namespace and on which optional metrics the document carries, so it is
 * built once per combination, not serialized again for every request.
 */
const directives = new Map<string, string>();
const NONE: readonly string[] = [];

function directivesFor(namespace: string, counted: readonly string[], dynamo: boolean, latency: boolean, byVersion: boolean): string {
  const key = `${namespace}|${counted.join(',')}|${dynamo}|${latency}|${byVersion}`;
  let found = directives.get(key);
  if (found === undefined) {
    const totals: Definition[] = [
      { Name: METRIC.requestsTotal, Unit: COUNT },
      { Name: METRIC.serverErrors, Unit: COUNT },
      { Name: METRIC.storageUnavailable, Unit: COUNT },
      { Name: METRIC.rateLimited, Unit: COUNT },
    ];
    for (const name of counted) totals.push({ Name: name, Unit: COUNT });
    if (dynamo) totals.push({ Name: METRIC.dynamoCalls, Unit: COUNT });
    if (latency) totals.push({ Name: METRIC.dynamoLatency, Unit: MILLISECONDS });
    const list: { Namespace: string; Dimensions: string[][]; Metrics: Definition[] }[] = [
      { Namespace: namespace, Dimensions: [[DIMENSIONS.service]], Metrics: totals },
      { Namespace: namespace, Dimensions: [[DIMENSIONS.service, DIMENSIONS.route, DIMENSIONS.statusClass]], Metrics: [{ Name: METRIC.requests, Unit: COUNT }] },
    ];
    if (byVersion) {
      // Only what a deployment's 5xx-rate alarm divides: two metrics per published version.
      list.push({
        Namespace: namespace,
        Dimensions: [[DIMENSIONS.service, DIMENSIONS.functionVersion]],
        Metrics: [
          { Name: METRIC.requestsTotal, Unit: COUNT },
          { Name: METRIC.serverErrors, Unit: COUNT },
        ],
      });
    }
    found = JSON.stringify(list);
    directives.set(key, found);
  }
  return found;
}

/**
 * The request's metrics as one CloudWatch embedded metric format (EMF)
 * document, as one line of JSON, with two directives sharing its values:
 * the per-request totals under `service` alone (every request counts 0 or 1
 * in each, so an Average is a rate; the alarms divide them), and `Requests`
 * under `service`, `route` and `statusClass`; on Lambda a third directive
 * counts `RequestsTotal` and `ServerErrors` under `service` and
 * `functionVersion` too. One document and one write per
 * request, where Powertools Metrics needed two (one dimension set per
 * instance). The values are assigned, not spread (serializing an object
 * built by spreads took several times the instructions), and the directives
 * come as cached text.
 */
export function requestMetricsLine(
  outcome: RequestOutcome,
  options: Pick<MetricsOptions, 'namespace' | 'service' | 'functionVersion'>,
  timestamp: number,
): string {
  const { status, counts, dynamo } = outcome;
  // EMF takes a list of values for one metric: one per call.
  const latency = dynamo !== undefined && dynamo.latenciesMs.length > 0;
  const values: Record<string, unknown> = {};
  values[DIMENSIONS.service] = options.service;
  values[DIMENSIONS.route] = outcome.route;
  values[DIMENSIONS.statusClass] = `${Math.floor(status / 100)}xx`;
  const byVersion = options.functionVersion !== undefined;
  if (byVersion) values[DIMENSIONS.functionVersion] = options.functionVersion;
  values[METRIC.requestsTotal] = 1;
  values[METRIC.serverErrors] = flag(status >= 500);
  values[METRIC.storageUnavailable] = flag(status === 503);
  values[METRIC.rateLimited] = flag(status === 429);
  // What the API counted (contacts created, events accepted…), by metric name.
  const counted = counts ? Object.keys(counts) : NONE;
  for (const name of counted) values[name] = (counts as Record<string, number>)[name];
  if (dynamo) values[METRIC.dynamoCalls] = dynamo.calls;
  if (latency) values[METRIC.dynamoLatency] = dynamo.latenciesMs;
  values[METRIC.requests] = 1;
  const aws = `{"_aws":{"Timestamp":${Math.trunc(timestamp)},"CloudWatchMetrics":${directivesFor(options.namespace, counted, dynamo !== undefined, latency, byVersion)}},`;
  return `${aws}${JSON.stringify(values).slice(1)}`;
}

/**
 * Request metrics as EMF lines for stdout, which CloudWatch Logs turns into
 * metrics: no API call. The line goes out with the request's log line, in
 * one write (JsonLogger.emit): straight to the stream, not console.log,
 * which the Lambda runtime prefixes with a timestamp and request id (a
 * prefixed line is no longer EMF).
 */
export class RequestMetrics {
  constructor(private readonly options: MetricsOptions = metricsOptionsFromEnv()) {}

  /** False when metrics are off (callers skip building the outcome). */
  get enabled(): boolean {
    return this.options.enabled;
  }

  /** The request's EMF line, newline-terminated, or '' when metrics are off. */
  line(outcome: RequestOutcome): string {
    if (!this.options.enabled) return '';
    return `${requestMetricsLine(outcome, this.options, Date.now())}\n`;
  }
}
