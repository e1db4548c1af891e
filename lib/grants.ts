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
