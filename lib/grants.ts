import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';

/**
 * Allows exactly these DynamoDB calls on the table itself. Unlike
 * `Table.grant`, which adds `<table>/index/*` whenever the table has indexes,
 * the index ARNs are left out: a caller that queries an index is granted
 * that one index (grantIndexCalls). The tables use the AWS managed key, so
 * there is no key to grant.
 */
export function grantTableCalls(table: Table, grantee: IGrantable, ...actions: `dynamodb:${string}`[]): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [table.tableArn] }));
}

/** Allows exactly these DynamoDB calls on one index of the table, and on no other. */
export function grantIndexCalls(table: Table, indexName: string, grantee: IGrantable, ...actions: `dynamodb:${string}`[]): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [`${table.tableArn}/index/${indexName}`] }));
}

/**
 * Allows these DynamoDB calls on the table only for items whose partition
 * key matches `keyPattern` (IAM's `dynamodb:LeadingKeys`, with `*` as a
 * wildcard): a grantee that writes one kind of item of a shared table
 * writes no other.
 */
export function grantTableCallsOnKeys(table: Table, grantee: IGrantable, keyPattern: string, ...actions: `dynamodb:${string}`[]): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions, resources: [table.tableArn], conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keyPattern] } } }),
  );
}
