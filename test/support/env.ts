// Each test worker: quiet logs, and no Node-version notice from the AWS SDK.
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Metrics are EMF lines on stdout; the tests that check them turn them back on.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
// The npm starts the tests run live seconds: their DynamoDB Local compiles with the JIT's first tier only, about a
// fifth less CPU per npm start (docs/development.md#where-the-cpu-goes-by-kind-of-process).
process.env.DYNAMODB_LOCAL_FAST_START = '1';
