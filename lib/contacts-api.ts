import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, LogGroup, MetricFilter, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { grantTableCalls } from './grants';
import type { GradualDeployment } from './gradual-deployment';
import { contactsProbes } from './pre-traffic-probes';
import { releasedFunction, type ReleaseSettings } from './released-function';
import { GATEWAY_THROTTLED_DIMENSION, GATEWAY_THROTTLED_METRIC, type Throttle } from './route-throttles';
import type { ServiceFunction } from './service-function';

export interface ContactsApiProps {
  contactsTable: Table;
  keysTable: Table;
  /** The contacts API's throttle at the gateway (the stage's default, applied to each of its methods), above the per-key limits. */
  throttleRatePerSecond: number;
  throttleBurst: number;
  /** The public APIs' own throttles at the gateway, per route (lib/route-throttles.ts): their storms stop there. */
  routeThrottles: Record<string, Throttle>;
  /**
   * Create the account-wide role API Gateway needs to write access logs. Turn
   * off when the account (region) already has one set.
   */
  createCloudWatchRole: boolean;
  stageName: string;
  memorySize: number;
  accessLogRetention: RetentionDays;
  /** The stack's release settings; their log removal policy is the access logs' too. */
  release: ReleaseSettings;
  /** Execution environments kept initialized on the function's `live` alias; 0: none. */
  provisionedConcurrency: number;
}

/** `{"error": <message>}` for a gateway response. */
const errorBody = (message: string) => ({ 'application/json': `{"error": ${JSON.stringify(message)}}` });

/**
 * API Gateway (REST, regional) → one Lambda (proxy integration for every
 * method on every path, so the handler answers 404/405 itself). Gateway-made
 * errors are reshaped to `{"error": …}`; no CORS anywhere.
 */
export class ContactsApi extends Construct {
  readonly api: RestApi;
  readonly handler: ServiceFunction;
  /** How the function reaches traffic: its `live` alias, which the integrations invoke. */
  readonly deployment: GradualDeployment;
  readonly accessLogs: LogGroup;
  /** The contacts function's proxy integration: every path no other function owns goes to it. */
  readonly integration: LambdaIntegration;

  constructor(scope: Construct, id: string, props: ContactsApiProps) {
    super(scope, id);

    ({ handler: this.handler, deployment: this.deployment } = releasedFunction(this, 'Handler', {
      settings: props.release,
      description: 'Contacts API: upsert and read contacts (API Gateway proxy)',
      entry: 'contacts/api/contacts-entry.ts',
      // The handler answers 503 half a second before this; DynamoDB calls are bounded well inside it.
      timeout: Duration.seconds(10),
      memorySize: props.memorySize,
      environment: { CONTACTS_TABLE_NAME: props.contactsTable.tableName, KEYS_TABLE_NAME: props.keysTable.tableName },
      service: SERVICE_NAME,
      deploymentId: 'Deployment',
      release: {
        name: 'api',
        probes: contactsProbes,
        // As the stage's api-latency-p99 alarm: a warm request takes milliseconds.
        p99DurationMs: 2000,
        ownMetrics: 'requests',
        provisionedConcurrency: props.provisionedConcurrency,
      },
    }));

    // Least privilege: exactly the calls the handler makes.
    grantTableCalls(props.contactsTable, this.handler, 'dynamodb:UpdateItem', 'dynamodb:GetItem');
    grantTableCalls(props.keysTable, this.handler, 'dynamodb:UpdateItem');

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention,
      removalPolicy: props.release.logRemovalPolicy,
    });

    this.api = new RestApi(this, 'Api', {
      // Named after the stack: API Gateway's metrics (and so the alarms) tell APIs apart by this name.
      restApiName: Stack.of(this).stackName,
      description: 'Contacts service: server-to-server contacts API',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Every body reaches the functions as sent (base64), so gzip/br Sentry envelopes, sent with any or no
      // content type, arrive intact; the functions decode base64 bodies (lambda/infrastructure/http/steps/json-body.ts).
      binaryMediaTypes: ['*/*'],
      cloudWatchRole: props.createCloudWatchRole,
      // The role is the account's (one per region): other APIs may rely on it after this stack is gone.
      // (CDK refuses a removal policy for a role it does not create.)
      cloudWatchRoleRemovalPolicy: props.createCloudWatchRole ? RemovalPolicy.RETAIN : undefined,
      deployOptions: {
        stageName: props.stageName,
        throttlingRateLimit: props.throttleRatePerSecond,
        throttlingBurstLimit: props.throttleBurst,
        methodOptions: Object.fromEntries(
          Object.entries(props.routeThrottles).map(([path, { rate, burst }]) => [
            path,
            // Each route's setting is whole: execution logs stay off there too (they would record keys).
            { throttlingRateLimit: rate, throttlingBurstLimit: burst, loggingLevel: MethodLoggingLevel.OFF, dataTraceEnabled: false, metricsEnabled: true },
          ]),
        ),
        metricsEnabled: true,
        // Execution logs could record headers (keys): access logs only, without query strings.
        loggingLevel: MethodLoggingLevel.OFF,
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            error: '$context.error.message',
            // Which API a request reached (lib/route-throttles.ts), and what the gateway answered itself (THROTTLED, …).
            resourcePath: '$context.resourcePath',
            responseType: '$context.error.responseType',
          }),
        ),
      },
    });

    // The stack outputs the URL under its own name (ApiUrl).
    this.api.node.tryRemoveChild('Endpoint');

    // The gateway's own 429s, by resource: each API's are alarmed apart (lib/alarms.ts).
    new MetricFilter(this, 'GatewayThrottled', {
      logGroup: this.accessLogs,
      metricNamespace: props.release.metricsNamespace,
      metricName: GATEWAY_THROTTLED_METRIC,
      filterPattern: FilterPattern.stringValue('$.responseType', '=', 'THROTTLED'),
      metricValue: '1',
      dimensions: { [GATEWAY_THROTTLED_DIMENSION]: '$.resourcePath' },
    });

    const integration = new LambdaIntegration(this.deployment.alias, { proxy: true, allowTestInvoke: false });
    this.integration = integration;
    this.api.root.addMethod('ANY', integration);
    this.api.root.addProxy({ defaultIntegration: integration, anyMethod: true });

    // Errors API Gateway produces itself, in the API's own error shape.
    const passMessage = { 'application/json': '{"error": $context.error.messageString}' };
    this.api.addGatewayResponse('Default4xx', { type: ResponseType.DEFAULT_4XX, templates: passMessage });
    this.api.addGatewayResponse('Default5xx', { type: ResponseType.DEFAULT_5XX, templates: passMessage });
    this.api.addGatewayResponse('Throttled', {
      type: ResponseType.THROTTLED,
      statusCode: '429',
      responseHeaders: { 'Retry-After': "'1'" },
      templates: errorBody('Too many requests for this service right now: retry after 1 s.'),
    });
    this.api.addGatewayResponse('RequestTooLarge', {
      type: ResponseType.REQUEST_TOO_LARGE,
      statusCode: '413',
      // Only bodies past API Gateway's own 10 MB reach this answer; each API refuses far smaller ones itself, naming its limit.
      templates: errorBody('Request body too large for this service: each API names its own body limit (the contacts API 512 KiB, the ingest API 64 KiB).'),
    });
    this.api.addGatewayResponse('MissingAuthenticationToken', {
      type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '404',
      templates: errorBody('No such endpoint. The contacts API lives under /api/v1/contacts.'),
    });
    this.api.addGatewayResponse('IntegrationTimeout', {
      type: ResponseType.INTEGRATION_TIMEOUT,
      statusCode: '504',
      responseHeaders: { 'Retry-After': "'1'" },
      templates: errorBody('The request timed out: retry the same request (retrying is safe).'),
    });

    this.suppressNagFindings();
  }

  /** cdk-nag AwsSolutions findings this API deliberately does not follow, each with its reason. */
  private suppressNagFindings(): void {
    NagSuppressions.addResourceSuppressions(this.api, [
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'The Lambda validates every request (body size, JSON, then content with zod) and answers the API\'s own 400/413/422 {"error"} bodies, after the key check and in the order of docs/contacts-api.md#precedence. An API Gateway request validator would answer earlier, in another order and shape, so none is configured.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.api.methods, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'The Lambda authenticates every request itself: a secret key (Authorization: Bearer dfsk_…) is looked up by its sha256 in the keys table, in the same conditional write that counts its rate limit (docs/keys.md, docs/contacts-api.md#precedence). An API Gateway authorizer would add a second lookup per request and could not keep the specified precedence (403 for an Origin header before 401).',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Callers are servers holding API keys issued with the keys command, not users of a Cognito user pool; the Lambda authenticates the keys (see AwsSolutions-APIG4).',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.api.deploymentStage, [
      {
        id: 'AwsSolutions-APIG3',
        reason:
          "No WAF web ACL: the routes' own limits stand in front, without a web ACL's per-request charge. Each API has its own gateway throttle per route (throttleRate for the contacts API, ingestThrottleRate for the public ingest routes, sourceMapsThrottleRate), applied before the account's shared limit, so a storm on the public routes is refused there (429, alarmed per API) and never reaches the contacts API's limit; behind it, every request needs a key the function checks (the ingest routes a public, origin-bound one), with an exact per-key limit and, on the ingest routes, a per-address limit. What a web ACL would add is a per-address rate rule before any function runs: docs/deploying.md#one-api-cannot-starve-the-other gives its cost; a web ACL can be associated with the stage then.",
      },
      {
        id: 'AwsSolutions-APIG6',
        reason:
          'Execution logging is off on purpose: at INFO it records request headers, which carry secret keys. Every request is still logged: JSON access logs without headers or query strings, and one line per request from the Lambda.',
      },
      {
        id: 'Serverless-APIGWXrayEnabled',
        reason:
          "No X-Ray, as for the functions (see Serverless-LambdaTracing on them): the access log has API Gateway's own latency and the integration's, the function's log line its DynamoDB calls and their time, joined by the request id.",
      },
    ]);
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      NagSuppressions.addResourceSuppressions(cloudWatchRole, [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            "AmazonAPIGatewayPushToCloudWatchLogs is the policy API Gateway documents for its account-level logging role. That role serves every REST API of the account in this region, so it cannot be narrowed to this stack's log group.",
          appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'],
        },
      ]);
    }
  }
}
