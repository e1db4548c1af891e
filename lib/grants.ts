import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';

/**
 * Allows exactly these DynamoDB calls on the table itself. Unlike
 * `Table.grant`, which adds `<table>/index/*` whenever the table has indexes,
 * the index ARNs are left out: none of these callers queries an index. The
 * tables use the AWS managed key, so there is no key to grant.
 */
export function grantTableCalls(table: Table, grantee: IGrantable, ...actions: `dynamodb:${string}`[]): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [table.tableArn] }));
}
