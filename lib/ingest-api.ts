import { Duration } from 'aws-cdk-lib';
import { LambdaIntegration, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { API_PREFIXES } from '../lambda/infrastructure/http/prefixes';
import { INGEST_SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { grantTableCalls } from './grants';
import type { GradualDeployment } from './gradual-deployment';
import { ingestProbes } from './pre-traffic-probes';
import { releasedFunction, type ReleaseSettings } from './released-function';
import type { ServiceFunction } from './service-function';

export interface IngestApiProps {
  /** The REST API and stage the contacts API already runs on: one host. */
  api: RestApi;
  /** Where every path the ingest function does not own keeps going. */
  contactsIntegration: LambdaIntegration;
  keysTable: Table;
  reportsTable: Table;
  memorySize: number;
  reportRetentionDays: number;
  release: ReleaseSettings;
}

/**
 * The browser-side bug-reporting API (docs/ingest-api.md): its own
 * Middy-wrapped Lambda behind `/ingest/v1/{proxy+}` on the same REST API and
 * stage as the contacts API, which keeps every other path. Least privilege:
 * the function may update key items (the key call, the exposed mark), and
 * put and update items of the reports table (reports, limiter items); it
 * cannot read or write contacts, nor read a report back.
 */
export class IngestApi extends Construct {
  readonly handler: ServiceFunction;
  /** How the function reaches traffic: its `live` alias, which the integration invokes. */
  readonly deployment: GradualDeployment;

  constructor(scope: Construct, id: string, props: IngestApiProps) {
    super(scope, id);
    ({ handler: this.handler, deployment: this.deployment } = releasedFunction(this, 'Handler', {
      settings: props.release,
      description: 'Contacts ingest API: bug reports and feature requests from browsers (API Gateway proxy)',
      entry: 'ingest/api/ingest-entry.ts',
      // The handler answers 503 half a second before this; DynamoDB calls are bounded well inside it.
      timeout: Duration.seconds(10),
      memorySize: props.memorySize,
      environment: {
        KEYS_TABLE_NAME: props.keysTable.tableName,
        REPORTS_TABLE_NAME: props.reportsTable.tableName,
        REPORT_RETENTION_DAYS: String(props.reportRetentionDays),
      },
      service: INGEST_SERVICE_NAME,
      deploymentId: 'Deployment',
      release: { name: 'ingest', probes: ingestProbes, p99DurationMs: 2000, ownMetrics: 'requests' },
    }));

    // Least privilege: exactly the calls the handler makes.
    grantTableCalls(props.keysTable, this.handler, 'dynamodb:UpdateItem');
    // GetItem: a feedback's associated event, read once per feedback for its issue (docs/feedback.md).
    grantTableCalls(props.reportsTable, this.handler, 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem');

    // /ingest/v1/{proxy+} → this function. /ingest and /ingest/v1 themselves stay the contacts
    // function's, as they were before these resources existed (and as npm start dispatches).
    const [first, second] = API_PREFIXES.ingest.split('/').filter(Boolean) as [string, string];
    const ingest = props.api.root.addResource(first);
    const version = ingest.addResource(second);
    const ingestMethods = [ingest.addMethod('ANY', props.contactsIntegration), version.addMethod('ANY', props.contactsIntegration)];
    const proxy = version.addProxy({
      defaultIntegration: new LambdaIntegration(this.deployment.alias, { proxy: true, allowTestInvoke: false }),
      anyMethod: true,
    });
    // /ingest/sentry/{proxy+} → this function too: the Sentry protocol (docs/sentry-sdks.md); /ingest/sentry
    // itself to the contacts function, as /ingest/v1 is.
    const sentryPath = ingest.addResource(API_PREFIXES.sentry.split('/').filter(Boolean)[1] as string);
    ingestMethods.push(sentryPath.addMethod('ANY', props.contactsIntegration));
    const sentry = sentryPath.addProxy({
      defaultIntegration: new LambdaIntegration(this.deployment.alias, { proxy: true, allowTestInvoke: false }),
      anyMethod: true,
    });

    NagSuppressions.addResourceSuppressions(ingestMethods, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'These two paths (/ingest and /ingest/v1 themselves) go to the contacts function like every path the ingest function does not own, and it authenticates every request itself: a secret key looked up by its sha256 in the keys table, in the same conditional write that counts its rate limit (docs/keys.md, docs/contacts-api.md#precedence).',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Callers are servers holding API keys issued with the keys command, not users of a Cognito user pool; the contacts function authenticates the keys (see AwsSolutions-APIG4).',
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      [proxy, sentry].flatMap((resource) => (resource.anyMethod ? [resource.anyMethod] : [])),
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            "The Lambda authenticates every request itself: a publishable key (Authorization: Bearer dfpk_… or ?key=, for navigator.sendBeacon) is looked up by its sha256 in the keys table, in the same conditional write that counts its rate limit, and the Origin must be on the key's list (docs/ingest-api.md). An API Gateway authorizer could not answer the CORS preflight without a key, nor read the key from the query in the specified precedence.",
        },
        {
          id: 'AwsSolutions-COG4',
          reason:
            "Callers are visitors' browsers on a customer's website holding its publishable key, not users of a Cognito user pool; the Lambda authenticates the keys (see AwsSolutions-APIG4).",
        },
      ],
    );
  }
}
