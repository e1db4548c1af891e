import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from './names';

/**
 * The service's metrics (Powertools Metrics): CloudWatch embedded metric
 * format written to stdout, so recording a metric makes no API call. Created
 * once per container; `POWERTOOLS_METRICS_DISABLED=true` turns it off (the
 * local server and the tests do, to keep their output readable).
 */
const options = {
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
};

/** Metrics with the `service` dimension only. */
export const metrics = new Metrics(options);

/**
 * Metrics that also carry per-request dimensions (route, status class). A
 * second long-lived instance rather than `singleMetric()`, which builds a new
 * Metrics object on every call.
 */
export const dimensionedMetrics = new Metrics(options);
