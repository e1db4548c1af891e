/**
 * Names of the stack outputs. The operator commands (keys, enrich, control, reports)
 * read the table names, the default rate limit and the control room's URL
 * from them, so this file stays free of CDK imports.
 */
export const OUTPUTS = {
  apiUrl: 'ApiUrl',
  contactsTable: 'ContactsTableName',
  keysTable: 'KeysTableName',
  referenceTable: 'ReferenceTableName',
  reportsTable: 'ReportsTableName',
  alertsTable: 'AlertsTableName',
  alertTopic: 'AlertTopicArn',
  controlRoomUrl: 'ControlRoomUrl',
  controlRoomFunction: 'ControlRoomFunctionName',
  platformName: 'PlatformName',
  defaultRateLimit: 'DefaultRateLimit',
  alarmTopic: 'AlarmTopicArn',
  dashboard: 'DashboardName',
  deployments: 'DeploymentApplicationName',
  apiLogGroup: 'ApiLogGroupName',
  accessLogGroup: 'AccessLogGroupName',
  ingestFunction: 'IngestFunctionName',
  apiFunction: 'ApiFunctionName',
  sourceMapsFunction: 'SourceMapsFunctionName',
  tallyFunction: 'TallyFunctionName',
  alertNotifierFunction: 'AlertNotifierFunctionName',
  alertDelivererFunction: 'AlertDelivererFunctionName',
  ingestLogGroup: 'IngestLogGroupName',
  tallyLogGroup: 'TallyLogGroupName',
  sourceMapsLogGroup: 'SourceMapsLogGroupName',
  alertNotifierLogGroup: 'AlertNotifierLogGroupName',
  alertDelivererLogGroup: 'AlertDelivererLogGroupName',
  controlRoomLogGroup: 'ControlRoomLogGroupName',
  sourceMapsBucket: 'SourceMapsBucket',
} as const;

/**
 * Every released function (a version behind `live`, lib/released-function.ts),
 * by the short name its deployment alarms carry, with the output naming it:
 * what `npm run status` reads.
 */
export const RELEASED_FUNCTION_OUTPUTS = {
  api: OUTPUTS.apiFunction,
  ingest: OUTPUTS.ingestFunction,
  sourcemaps: OUTPUTS.sourceMapsFunction,
  'control-room': OUTPUTS.controlRoomFunction,
  tally: OUTPUTS.tallyFunction,
  'alert-notifier': OUTPUTS.alertNotifierFunction,
  'alert-deliverer': OUTPUTS.alertDelivererFunction,
} as const;

/**
 * The `DefaultRateLimit` output as a number: requests per minute for keys
 * created without `--rate-limit`. Undefined when the output is absent (a
 * stack deployed before the option existed); a value that is not a positive
 * whole number is an error, never silently replaced.
 */
export function rateLimitFromOutput(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new Error(`the ${OUTPUTS.defaultRateLimit} output is "${value}", not a number of requests per minute`);
  }
  return limit;
}
