#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContactsStack } from '../lib/contacts-stack';
import { DEPLOY_OPTION_NAMES, resolveDeployOptions } from '../lib/deploy-options';
import { PROJECT_ROOT } from '../lib/service-function';
import { sourceCommit } from '../lib/source-commit';
import { stackOptions } from '../lib/stack-configuration';

/**
 * The CDK app. A stack's options live in cdk.json, in its own section
 * (`context.stacks.<stackName>`) or shared by every stack (flat `context`
 * keys); `cdk deploy -c name=value` changes one for a single deploy, except
 * the options that must persist (lib/stack-configuration.ts). stackName
 * (default ContactsService) picks the section. A bad value stops the synth
 * with a message naming the option; docs/deploying.md#options lists them.
 */
const app = new App();

const stackName: unknown = app.node.tryGetContext('stackName');
const name = typeof stackName === 'string' && stackName ? stackName : 'ContactsService';
// The cdk.json the CLI runs the app from (its working directory), as the CLI itself reads it.
const cdkJson = join(process.cwd(), 'cdk.json');
const configured = existsSync(cdkJson) ? ((JSON.parse(readFileSync(cdkJson, 'utf8')) as { context?: Record<string, unknown> }).context ?? {}) : {};
const given = Object.fromEntries(DEPLOY_OPTION_NAMES.map((option) => [option, app.node.tryGetContext(option) as unknown]));

new ContactsStack(app, name, {
  description: 'Contacts service: API Gateway, Lambda and DynamoDB',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...resolveDeployOptions(stackOptions({ stackName: name, configured, given })),
  commit: sourceCommit(PROJECT_ROOT),
});
