import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { stackMetricsNamespace } from '../lambda/infrastructure/observability/names';
import { Alerts } from './alerts';
import { ServiceAlarms } from './alarms';
import { ContactsApi } from './contacts-api';
import { ControlRoom } from './control-room';
import { ServiceDashboard } from './dashboard';
import { resolveDeployOptions, type DeployOptions } from './deploy-options';
import { HookFailures } from './hook-failures';
import { IngestApi } from './ingest-api';
import { OUTPUTS } from './outputs';
import { UNKNOWN_COMMIT } from './release-commit';
import { routeThrottles } from './route-throttles';
import type { ReleaseSettings } from './released-function';
import type { ServiceFunction } from './service-function';
import { SourceMaps } from './source-maps';
import { ContactsTables } from './tables';
import { Tally } from './tally';

/** The deploy options (lib/deploy-options.ts), each optional: defaults fill the rest. */
export interface ContactsStackProps extends StackProps, Partial<DeployOptions> {
  /** The commit the functions are built from (bin/contacts.ts reads it from git): named in each version's description. */
  commit?: string;
}

/** CloudWatch Logs' retention values are the numbers of days themselves. */
const retention = (days: number): RetentionDays => days as RetentionDays;

/**
 * The contacts service: tables, the API Lambda and its REST API, the ingest
 * Lambda on the same REST API (/ingest/v1/*), the tally on the reports
 * table's stream, the internal control-room Lambda, and the alarms and
 * dashboard that watch them.
 */
export class ContactsStack extends Stack {
  readonly options: DeployOptions;
  readonly tables: ContactsTables;
  /** The CodeDeploy application of every function's gradual deployment (lib/gradual-deployment.ts). */
  readonly deployments: LambdaApplication;
  /** Every deployment hook's on-failure destination (lib/hook-failures.ts). */
  readonly hookFailures: ServiceFunction;
  readonly api: ContactsApi;
  readonly ingest: IngestApi;
  readonly tally: Tally;
  readonly sourceMaps: SourceMaps;
  readonly controlRoom: ControlRoom;
  readonly alerts: Alerts;
  readonly alarms: ServiceAlarms;
  readonly dashboard: ServiceDashboard;

  constructor(scope: Construct, id: string, props: ContactsStackProps = {}) {
    super(scope, id, props);
    const options = resolveDeployOptions(props);
    this.options = options;
    const removalPolicy = options.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    this.tables = new ContactsTables(this, 'Tables', { removalPolicy });
    this.deployments = new LambdaApplication(this, 'Deployments');
    const hookFailures = new HookFailures(this, 'HookFailures', {
      application: this.deployments,
      logRetention: retention(options.logRetentionDays),
      logRemovalPolicy: removalPolicy,
    });
    this.hookFailures = hookFailures.handler;
    // What every function shares, given once to each construct that has one (lib/released-function.ts).
    const release: ReleaseSettings = {
      application: this.deployments,
      trafficShift: options.trafficShift,
      logLevel: options.logLevel,
      logRetention: retention(options.logRetentionDays),
      logRemovalPolicy: removalPolicy,
      metricsNamespace: stackMetricsNamespace(this.stackName),
      commit: props.commit ?? UNKNOWN_COMMIT,
      bakeMinutes: options.bakeMinutes,
      hookFailures: hookFailures.handler,
    };
    this.api = new ContactsApi(this, 'ContactsApi', {
      contactsTable: this.tables.contacts,
      keysTable: this.tables.keys,
      throttleRatePerSecond: options.throttleRate,
      throttleBurst: options.throttleBurst,
      routeThrottles: routeThrottles({
        ingest: { rate: options.ingestThrottleRate, burst: options.ingestThrottleBurst },
        sourcemaps: { rate: options.sourceMapsThrottleRate, burst: options.sourceMapsThrottleBurst },
      }),
      createCloudWatchRole: options.cloudWatchRole,
      stageName: options.stageName,
      memorySize: options.apiMemoryMb,
      accessLogRetention: retention(options.accessLogRetentionDays),
      release,
      provisionedConcurrency: options.provisionedConcurrency,
    });
    this.ingest = new IngestApi(this, 'IngestApi', {
      api: this.api.api,
      contactsIntegration: this.api.integration,
      keysTable: this.tables.keys,
      reportsTable: this.tables.reports,
      memorySize: options.apiMemoryMb,
      reportRetentionDays: options.reportRetentionDays,
      release,
    });
    // Source maps (docs/source-maps.md): the bucket and the upload API; the ingest function reads maps (and the control room, below).
    this.sourceMaps = new SourceMaps(this, 'SourceMaps', {
      api: this.api.api,
      contactsIntegration: this.api.integration,
      keysTable: this.tables.keys,
      removalPolicy,
      release,
    });
    this.sourceMaps.grantResolver(this.ingest.handler);
    this.tally = new Tally(this, 'Tally', {
      reportsTable: this.tables.reports,
      contactsTable: this.tables.contacts,
      release,
    });
    this.alerts = new Alerts(this, 'Alerts', {
      reportsTable: this.tables.reports,
      alertsTable: this.tables.alerts,
      alertEmails: options.alertEmails,
      linkBase: options.alertLinkBase,
      release,
    });
    this.controlRoom = new ControlRoom(this, 'ControlRoom', {
      contactsTable: this.tables.contacts,
      referenceTable: this.tables.reference,
      keysTable: this.tables.keys,
      reportsTable: this.tables.reports,
      alertsTable: this.tables.alerts,
      alertLinkBase: options.alertLinkBase,
      defaultRateLimit: options.defaultRateLimit,
      platformName: options.platformName,
      controlRoomPrincipalArn: options.controlRoomRoleArn,
      release,
    });
    // The control room shows events' frames resolved: it reads maps too, never writes them.
    this.sourceMaps.grantResolver(this.controlRoom.handler);
    this.alarms = new ServiceAlarms(this, 'Alarms', {
      stage: this.api.api.deploymentStage,
      apiFunction: this.api.handler,
      ingestFunction: this.ingest.handler,
      controlRoomFunction: this.controlRoom.handler,
      sourceMapsFunction: this.sourceMaps.handler,
      tallyFunction: this.tally.handler,
      tallyFailures: this.tally.failures,
      contactsTable: this.tables.contacts,
      keysTable: this.tables.keys,
      reportsTable: this.tables.reports,
      alertsTable: this.tables.alerts,
      alerts: this.alerts,
      hookFailures: this.hookFailures,
      alarmEmail: options.alarmEmail,
      metricsNamespace: release.metricsNamespace,
    });
    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      stage: this.api.api.deploymentStage,
      apiFunction: this.api.handler,
      ingestFunction: this.ingest.handler,
      controlRoomFunction: this.controlRoom.handler,
      sourceMapsFunction: this.sourceMaps.handler,
      tallyFunction: this.tally.handler,
      alerts: this.alerts,
      alarms: this.alarms.alarms,
      metricsNamespace: release.metricsNamespace,
    });

    new CfnOutput(this, OUTPUTS.apiUrl, {
      value: this.api.api.url,
      description: 'Base URL: the contacts API is at <ApiUrl>api/v1/contacts, the ingest API at <ApiUrl>ingest/v1/',
    });
    new CfnOutput(this, OUTPUTS.contactsTable, { value: this.tables.contacts.tableName });
    new CfnOutput(this, OUTPUTS.keysTable, { value: this.tables.keys.tableName });
    new CfnOutput(this, OUTPUTS.referenceTable, { value: this.tables.reference.tableName });
    new CfnOutput(this, OUTPUTS.reportsTable, {
      value: this.tables.reports.tableName,
      description: 'What the ingest API stored: the reports command reads it with --stack',
    });
    new CfnOutput(this, OUTPUTS.alertsTable, { value: this.tables.alerts.tableName });
    new CfnOutput(this, OUTPUTS.alertTopic, {
      value: this.alerts.topic.topicArn,
      description: 'SNS topic of every issue alert of every factory, for the platform team (the alertEmails option subscribes addresses)',
    });
    // Every released function by name: `npm run status` reads which version of each runs, and its commit.
    new CfnOutput(this, OUTPUTS.ingestFunction, { value: this.ingest.handler.functionName });
    new CfnOutput(this, OUTPUTS.apiFunction, { value: this.api.handler.functionName });
    new CfnOutput(this, OUTPUTS.sourceMapsFunction, { value: this.sourceMaps.handler.functionName });
    new CfnOutput(this, OUTPUTS.tallyFunction, { value: this.tally.handler.functionName });
    new CfnOutput(this, OUTPUTS.alertNotifierFunction, { value: this.alerts.notifier.functionName });
    new CfnOutput(this, OUTPUTS.alertDelivererFunction, { value: this.alerts.deliverer.functionName });
    new CfnOutput(this, OUTPUTS.platformName, {
      value: options.platformName,
      description: 'enrichment.provider on enriched contacts; the enrich command uses it with --stack',
    });
    new CfnOutput(this, OUTPUTS.controlRoomUrl, {
      value: this.controlRoom.url.url,
      description: 'Internal: the control room function URL (AWS_IAM, SigV4-signed POSTs); npm run control -- --stack uses it (docs/control-room.md)',
    });
    new CfnOutput(this, OUTPUTS.controlRoomFunction, { value: this.controlRoom.handler.functionName });
    new CfnOutput(this, OUTPUTS.defaultRateLimit, {
      value: String(options.defaultRateLimit),
      description: 'Requests per minute of keys created with keys --stack and no --rate-limit',
    });
    new CfnOutput(this, OUTPUTS.alarmTopic, {
      value: this.alarms.topic.topicArn,
      description: 'SNS topic every alarm notifies (ALARM and OK): subscribe on-call here',
    });
    new CfnOutput(this, OUTPUTS.deployments, {
      value: this.deployments.applicationName,
      description: "CodeDeploy application: each function's gradual deployments (aws deploy list-deployments --application-name …)",
    });
    new CfnOutput(this, OUTPUTS.dashboard, {
      value: this.dashboard.dashboard.dashboardName,
      description: 'CloudWatch dashboard of this stack',
    });
    // Where the runbook's Logs Insights queries run.
    new CfnOutput(this, OUTPUTS.apiLogGroup, { value: this.api.handler.logGroup.logGroupName });
    new CfnOutput(this, OUTPUTS.accessLogGroup, { value: this.api.accessLogs.logGroupName });
    new CfnOutput(this, OUTPUTS.controlRoomLogGroup, { value: this.controlRoom.handler.logGroup.logGroupName });
    new CfnOutput(this, OUTPUTS.ingestLogGroup, { value: this.ingest.handler.logGroup.logGroupName });
    new CfnOutput(this, OUTPUTS.tallyLogGroup, { value: this.tally.handler.logGroup.logGroupName });
    new CfnOutput(this, OUTPUTS.sourceMapsLogGroup, { value: this.sourceMaps.handler.logGroup.logGroupName });
    new CfnOutput(this, OUTPUTS.alertNotifierLogGroup, { value: this.alerts.notifier.logGroup.logGroupName });
    new CfnOutput(this, OUTPUTS.alertDelivererLogGroup, { value: this.alerts.deliverer.logGroup.logGroupName });
  }
}
