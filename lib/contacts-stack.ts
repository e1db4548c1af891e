import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ContactsApi } from './contacts-api';
import { OUTPUTS } from './outputs';
import { ContactsTables } from './tables';

export { OUTPUTS };

export interface ContactsStackProps extends StackProps {
  throttleRatePerSecond?: number;
  throttleBurst?: number;
  createCloudWatchRole?: boolean;
}

/** The contacts service: tables, the API Lambda and its REST API. */
export class ContactsStack extends Stack {
  readonly tables: ContactsTables;
  readonly api: ContactsApi;

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

    new CfnOutput(this, OUTPUTS.apiUrl, {
      value: this.api.api.url,
      description: 'Base URL: the contacts API is at <ApiUrl>api/v1/contacts',
    });
    new CfnOutput(this, OUTPUTS.contactsTable, { value: this.tables.contacts.tableName });
    new CfnOutput(this, OUTPUTS.keysTable, { value: this.tables.keys.tableName });
  }
}
