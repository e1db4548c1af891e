import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_SPECS, type TableSpec } from './table-specs';

export interface ContactsTablesProps {
  /**
   * RETAIN (production, the default): kept when the stack is deleted, and
   * deletion protection on. DESTROY (a non-production stage that asked for
   * it): deleted with the stack, deletion protection off.
   */
  removalPolicy: RemovalPolicy;
}

/**
 * The service's tables (contacts, keys, the enrichment reference dataset,
 * and the ingest API's reports), as lib/table-specs.ts defines them (the local tables are created
 * from the same definitions). On-demand, point-in-time recovery, encrypted with the
 * AWS managed key.
 */
export class ContactsTables extends Construct {
  readonly contacts: Table;
  readonly keys: Table;
  readonly reference: Table;
  readonly reports: Table;
  readonly alerts: Table;

  constructor(scope: Construct, id: string, props: ContactsTablesProps) {
    super(scope, id);
    const common = {
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy,
      deletionProtection: props.removalPolicy === RemovalPolicy.RETAIN,
    };

    const table = (id: string, spec: TableSpec): Table => {
      const created = new Table(this, id, {
        ...common,
        timeToLiveAttribute: spec.timeToLiveAttribute,
        stream: spec.stream === undefined ? undefined : StreamViewType[spec.stream],
        partitionKey: { name: spec.partitionKey, type: AttributeType.STRING },
        sortKey: spec.sortKey === undefined ? undefined : { name: spec.sortKey, type: AttributeType.STRING },
      });
      for (const index of spec.indexes) {
        created.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: index.sortKey === undefined ? undefined : { name: index.sortKey, type: AttributeType.STRING },
          projectionType: index.include ? ProjectionType.INCLUDE : ProjectionType.KEYS_ONLY,
          nonKeyAttributes: index.include ? [...index.include] : undefined,
        });
      }
      return created;
    };
    this.contacts = table('Contacts', TABLE_SPECS.contacts);
    this.keys = table('Keys', TABLE_SPECS.keys);
    this.reference = table('Reference', TABLE_SPECS.reference);
    this.reports = table('Reports', TABLE_SPECS.reports);
    this.alerts = table('Alerts', TABLE_SPECS.alerts);
  }
}
