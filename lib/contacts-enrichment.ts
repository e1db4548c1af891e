import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { ArnPrincipal } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENRICHMENT_SERVICE_NAME } from '../lambda/observability/names';
import type { LogLevel } from './deploy-options';
import { grantTableCalls } from './grants';
import { ServiceFunction } from './service-function';

export interface ContactsEnrichmentProps {
  contactsTable: Table;
  referenceTable: Table;
  /** `enrichment.provider` on every enriched contact. */
  platformName: string;
  /** An IAM principal (the control room's role) allowed to invoke the function. */
  controlRoomPrincipalArn?: string;
  logLevel: LogLevel;
  logRetention: RetentionDays;
  /** Of the log group. */
  removalPolicy: RemovalPolicy;
}

/** Not on the request path, so the apiMemoryMb option leaves it alone. */
const ENRICHMENT_MEMORY_MB = 1024;

/**
 * The internal enrichment Lambda: invoked by the control room with IAM, never
 * reachable through API Gateway. Refresh `{factoryId, contactId}`, bulk
 * `{factoryId, cursor?}`.
 */
export class ContactsEnrichment extends Construct {
  readonly handler: ServiceFunction;

  constructor(scope: Construct, id: string, props: ContactsEnrichmentProps) {
    super(scope, id);
    this.handler = new ServiceFunction(this, 'Handler', {
      description: 'Contacts enrichment (internal): control-room refresh and bulk runs',
      entry: 'enrichment/handler.ts',
      // A bulk invocation stops taking pages a minute before this and returns a cursor.
      timeout: Duration.minutes(5),
      memorySize: ENRICHMENT_MEMORY_MB,
      logRetention: props.logRetention,
      logRemovalPolicy: props.removalPolicy,
      environment: {
        CONTACTS_TABLE_NAME: props.contactsTable.tableName,
        REFERENCE_TABLE_NAME: props.referenceTable.tableName,
        PLATFORM_NAME: props.platformName,
        LOG_LEVEL: props.logLevel,
        POWERTOOLS_SERVICE_NAME: ENRICHMENT_SERVICE_NAME,
      },
    });

    // Least privilege: reads contacts (one or a page), and writes passes with
    // TransactWriteItems, whose permission is UpdateItem on each item.
    grantTableCalls(props.contactsTable, this.handler, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem');
    grantTableCalls(props.referenceTable, this.handler, 'dynamodb:GetItem');

    if (props.controlRoomPrincipalArn) this.handler.grantInvoke(new ArnPrincipal(props.controlRoomPrincipalArn));
  }
}
