#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { ContactsStack } from '../lib/contacts-stack';
import { DEPLOY_OPTION_NAMES, resolveDeployOptions } from '../lib/deploy-options';
import { PROJECT_ROOT } from '../lib/service-function';
import { sourceCommit } from '../lib/source-commit';

/**
 * The CDK app. A platform team sets options with `cdk deploy -c name=value`
 * (or in cdk.json's context, for those every deploy must keep, such as
 * platformName): stackName (default ContactsService) and the deploy options
 * of lib/deploy-options.ts, listed with their defaults in README, Deploying.
 * A bad value stops the synth with a message naming the option.
 */
const app = new App();

const context = Object.fromEntries(DEPLOY_OPTION_NAMES.map((name) => [name, app.node.tryGetContext(name) as unknown]));
const stackName: unknown = app.node.tryGetContext('stackName');

new ContactsStack(app, typeof stackName === 'string' && stackName ? stackName : 'ContactsService', {
  description: 'Contacts service: API Gateway, Lambda and DynamoDB',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...resolveDeployOptions(context),
  commit: sourceCommit(PROJECT_ROOT),
});
