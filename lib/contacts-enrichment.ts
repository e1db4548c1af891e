import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { ArnPrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';

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
  readonly handler: ServiceFunction;

  constructor(scope: Construct, id: string, props: ContactsEnrichmentProps) {
    super(scope, id);
    this.handler = new ServiceFunction(this, 'Handler', {
      description: 'Contacts enrichment (internal): control-room refresh and bulk runs',
      entry: 'enrichment/handler.ts',
      // A bulk invocation stops taking pages a minute before this and returns a cursor.
      timeout: Duration.minutes(5),
      environment: {
        CONTACTS_TABLE_NAME: props.contactsTable.tableName,
        REFERENCE_TABLE_NAME: props.referenceTable.tableName,
        PLATFORM_NAME: props.platformName,
      },
    });

    // Least privilege: reads contacts (one or a page), and writes passes with
    // TransactWriteItems, whose permission is UpdateItem on each item.
    props.contactsTable.grant(this.handler, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem');
    props.referenceTable.grant(this.handler, 'dynamodb:GetItem');

    if (props.controlRoomPrincipalArn) this.handler.grantInvoke(new ArnPrincipal(props.controlRoomPrincipalArn));
  }
}
