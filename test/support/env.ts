// Each test worker: quiet logs, and no Node-version notice from the AWS SDK.
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Metrics are EMF lines on stdout; the tests that check them turn them back on.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
