import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { DEFAULT_PLATFORM_NAME } from '../lambda/enrichment/config';
import { ContactsApi } from './contacts-api';
import { ContactsEnrichment } from './contacts-enrichment';
import { OUTPUTS } from './outputs';
import { ContactsTables } from './tables';

export { OUTPUTS };

export interface ContactsStackProps extends StackProps {
  throttleRatePerSecond?: number;
  throttleBurst?: number;
  createCloudWatchRole?: boolean;
  /** `enrichment.provider`: the platform's own name. */
  platformName?: string;
  /** The control room's IAM role, allowed to invoke the enrichment function. */
  controlRoomPrincipalArn?: string;
}

/** The contacts service: tables, the API Lambda and its REST API, the internal enrichment Lambda. */
export class ContactsStack extends Stack {
  readonly tables: ContactsTables;
  readonly api: ContactsApi;
  readonly enrichment: ContactsEnrichment;

  constructor(scope: Construct, id: string, props: ContactsStackProps = {}) {
    super(scope, id, props);
    this.tables = new ContactsTables(this, 'Tables');
    this.api = new ContactsApi(this, 'ContactsApi', {
      contactsTable: this.tables.contacts,
      keysTable: this.tables.keys,
      throttleRatePerSecond: props.throttleRatePerSecond ?? 1000,
      throttleBurst: props.throttleBurst ?? 2000,
      createCloudWatchRole: props.createCloudWatchRole ?? true,
    });
    const platformName = props.platformName ?? DEFAULT_PLATFORM_NAME;
    this.enrichment = new ContactsEnrichment(this, 'Enrichment', {
      contactsTable: this.tables.contacts,
      referenceTable: this.tables.reference,
      platformName,
      controlRoomPrincipalArn: props.controlRoomPrincipalArn,
    });

    new CfnOutput(this, OUTPUTS.apiUrl, {
      value: this.api.api.url,
      description: 'Base URL: the contacts API is at <ApiUrl>api/v1/contacts',
    });
    new CfnOutput(this, OUTPUTS.contactsTable, { value: this.tables.contacts.tableName });
    new CfnOutput(this, OUTPUTS.keysTable, { value: this.tables.keys.tableName });
    new CfnOutput(this, OUTPUTS.referenceTable, { value: this.tables.reference.tableName });
    new CfnOutput(this, OUTPUTS.platformName, {
      value: platformName,
      description: 'enrichment.provider on enriched contacts; the enrich command uses it with --stack',
    });
    new CfnOutput(this, OUTPUTS.enrichmentFunction, {
      value: this.enrichment.handler.functionName,
      description: 'Internal: the control room invokes it with IAM (see README, Enrichment)',
    });
  }
}
