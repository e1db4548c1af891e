import { Duration, RemovalPolicy } from 'aws-cdk-lib';
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
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';

export interface ContactsApiProps {
  contactsTable: Table;
  keysTable: Table;
  /** Stage-wide throttling, requests per second: account protection above the per-key limits. */
  throttleRatePerSecond: number;
  throttleBurst: number;
  /**
   * Create the account-wide role API Gateway needs to write access logs. Turn
   * off when the account (region) already has one set.
   */
  createCloudWatchRole: boolean;
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

  constructor(scope: Construct, id: string, props: ContactsApiProps) {
    super(scope, id);

    this.handler = new ServiceFunction(this, 'Handler', {
      description: 'Contacts API: upsert and read contacts (API Gateway proxy)',
      entry: 'api/handler.ts',
      // The handler answers 503 half a second before this; DynamoDB calls are bounded well inside it.
      timeout: Duration.seconds(10),
      environment: {
        CONTACTS_TABLE_NAME: props.contactsTable.tableName,
        KEYS_TABLE_NAME: props.keysTable.tableName,
      },
    });

    // Least privilege: exactly the calls the handler makes.
    props.contactsTable.grant(this.handler, 'dynamodb:UpdateItem', 'dynamodb:GetItem');
    props.keysTable.grant(this.handler, 'dynamodb:UpdateItem');

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.api = new RestApi(this, 'Api', {
      restApiName: 'contacts-service',
      description: 'Contacts service: server-to-server contacts API',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      cloudWatchRole: props.createCloudWatchRole,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: 'prod',
        throttlingRateLimit: props.throttleRatePerSecond,
        throttlingBurstLimit: props.throttleBurst,
        metricsEnabled: true,
        // Execution logs could record headers (keys): access logs only, without query strings.
        loggingLevel: MethodLoggingLevel.OFF,
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
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
          }),
        ),
      },
    });

    // The stack outputs the URL under its own name (ApiUrl).
    this.api.node.tryRemoveChild('Endpoint');

    const integration = new LambdaIntegration(this.handler, { proxy: true, allowTestInvoke: false });
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
      templates: errorBody('Request body too large: the limit is 512 KiB.'),
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
  }
}
