import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { ArnPrincipal } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { BUNDLING, LAMBDA_ARCHITECTURE, LAMBDA_RUNTIME, PROJECT_ROOT } from './bundling';

export interface ContactsEnrichmentProps {
  contactsTable: Table;
  referenceTable: Table;
  /** `enrichment.provider` on every enriched contact. */
  platformName: string;
  /** An IAM principal (the control room's role) allowed to invoke the function. */
  controlRoomPrincipalArn?: string;
}

/**
 * The internal enrichment Lambda: invoked by the control room with IAM, never
 * reachable through API Gateway. Refresh `{factoryId, contactId}`, bulk
 * `{factoryId, cursor?}`.
 */
export class ContactsEnrichment extends Construct {
  readonly handler: NodejsFunction;

  constructor(scope: Construct, id: string, props: ContactsEnrichmentProps) {
    super(scope, id);
    this.handler = new NodejsFunction(this, 'Handler', {
      description: 'Contacts enrichment (internal): control-room refresh and bulk runs',
      entry: join(PROJECT_ROOT, 'lambda', 'enrichment', 'handler.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: 1024,
      // A bulk invocation stops taking pages a minute before this and returns a cursor.
      timeout: Duration.minutes(5),
      bundling: BUNDLING,
      environment: {
        CONTACTS_TABLE_NAME: props.contactsTable.tableName,
        REFERENCE_TABLE_NAME: props.referenceTable.tableName,
        PLATFORM_NAME: props.platformName,
      },
      logGroup: new LogGroup(this, 'HandlerLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });

    // Least privilege: reads contacts (one or a page), and writes passes with
    // TransactWriteItems, whose permission is UpdateItem on each item.
    props.contactsTable.grant(this.handler, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem');
    props.referenceTable.grant(this.handler, 'dynamodb:GetItem');

    if (props.controlRoomPrincipalArn) this.handler.grantInvoke(new ArnPrincipal(props.controlRoomPrincipalArn));
  }
}
