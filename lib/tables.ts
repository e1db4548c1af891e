import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { CONTACTS_KEY, EXPIRES_AT, KEYS_BY_FACTORY, KEYS_BY_KEY_ID, KEYS_KEY, REFERENCE_KEY } from '../lambda/store/schema';

export interface ContactsTablesProps {
  /**
   * RETAIN (production, the default): kept when the stack is deleted, and
   * deletion protection on. DESTROY (a non-production stage that asked for
   * it): deleted with the stack, deletion protection off.
   */
  removalPolicy: RemovalPolicy;
}

/**
 * The service's tables (contacts, keys, and the enrichment reference
 * dataset), key schema from lambda/store/schema.ts (the same the local tables
 * are created with). On-demand, point-in-time recovery, encrypted with the
 * AWS managed key.
 */
export class ContactsTables extends Construct {
  readonly contacts: Table;
  readonly keys: Table;
  readonly reference: Table;

  constructor(scope: Construct, id: string, props: ContactsTablesProps) {
    super(scope, id);
    const common = {
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy,
      deletionProtection: props.removalPolicy === RemovalPolicy.RETAIN,
    };

    this.contacts = new Table(this, 'Contacts', {
      ...common,
      // Only the enrichment passId items carry it: they expire, everything else stays.
      timeToLiveAttribute: EXPIRES_AT,
      partitionKey: { name: CONTACTS_KEY.partitionKey, type: AttributeType.STRING },
      sortKey: { name: CONTACTS_KEY.sortKey, type: AttributeType.STRING },
    });

    this.keys = new Table(this, 'Keys', {
      ...common,
      partitionKey: { name: KEYS_KEY.partitionKey, type: AttributeType.STRING },
    });
    // Keys-only indexes: the per-request counter updates never touch them,
    // so rate limiting costs no index writes.
    this.keys.addGlobalSecondaryIndex({
      indexName: KEYS_BY_FACTORY.indexName,
      partitionKey: { name: KEYS_BY_FACTORY.partitionKey, type: AttributeType.STRING },
      sortKey: { name: KEYS_BY_FACTORY.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });
    this.keys.addGlobalSecondaryIndex({
      indexName: KEYS_BY_KEY_ID.indexName,
      partitionKey: { name: KEYS_BY_KEY_ID.partitionKey, type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });

    // The vendor dataset enrichment reads, loaded by `enrich -- load-dataset`.
    this.reference = new Table(this, 'Reference', {
      ...common,
      partitionKey: { name: REFERENCE_KEY.partitionKey, type: AttributeType.STRING },
    });
  }
}
