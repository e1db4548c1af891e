/**
 * Imported first by tools/bench/main.ts, before any module of the service reads
 * its environment: the in-process containers log nothing (the benchmark
 * prints its own results) and emit no metrics. The throughput run's service
 * process gets the Lambda's own settings instead (see throughput.ts).
 */
process.env.LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
