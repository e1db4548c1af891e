#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { ContactsStack } from '../lib/contacts-stack';

/**
 * The CDK app. Options a platform team sets (cdk deploy -c name=value):
 *   stackName            default ContactsService
 *   throttleRate         stage-wide requests per second (default 1000)
 *   throttleBurst        stage-wide burst (default 2000)
 *   cloudWatchRole       false when the account already has API Gateway's logging role
 *   platformName         enrichment.provider on enriched contacts: set once in cdk.json, so
 *                        every deploy keeps it (a -c on one deploy would not)
 *   controlRoomRoleArn   IAM role allowed to invoke the enrichment function
 */
const app = new App();

const context = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return value === undefined || value === null ? undefined : String(value);
};
const numberContext = (name: string): number | undefined => {
  const raw = context(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`-c ${name}=${raw}: expected a positive number`);
  return value;
};

new ContactsStack(app, context('stackName') ?? 'ContactsService', {
  description: 'Contacts service: API Gateway, Lambda and DynamoDB',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  throttleRatePerSecond: numberContext('throttleRate'),
  throttleBurst: numberContext('throttleBurst'),
  createCloudWatchRole: context('cloudWatchRole') !== 'false',
  platformName: context('platformName'),
  controlRoomPrincipalArn: context('controlRoomRoleArn'),
});
