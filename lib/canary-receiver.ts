import { Aws, Duration, Fn, type RemovalPolicy } from 'aws-cdk-lib';
import { type CfnFunction, FunctionUrlAuthType, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SECRET_PREFIX } from '../lambda/alerts/signature';
import type { LogLevel } from './deploy-options';
import { ServiceFunction } from './service-function';

export interface CanaryReceiverProps {
  logLevel: LogLevel;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/**
 * The webhook destination the stack owns for the deliverer's pre-traffic
 * probe (docs/deploying.md#the-pre-traffic-check): a function URL that
 * verifies a delivery's signature as a customer's receiver would and
 * answers 204, or 401. Least privilege: its role writes its own log group
 * and nothing else; it reads no table and keeps nothing, so a call from
 * anyone learns only whether the call was signed with its secret.
 *
 * The URL has no IAM auth because a webhook is not SigV4-signed: the
 * Standard Webhooks signature is its authentication, as at every receiver.
 * The secret is the random id CloudFormation gave the stack when it created
 * it (the last part of AWS::StackId, its hex digits read as the key's
 * base64): nothing in the source or the stack's name derives it, only
 * whoever may describe the stack in the account reads it, and it only ever
 * signs the probe's empty payload to a receiver that holds nothing. Its
 * reserved concurrency caps what calls to the public URL can take of the
 * account's: past it the URL answers 429. Not released gradually: it is the
 * probe's fixture, not a function of the service, and no customer traffic
 * reaches it.
 */

/** Invocations of the canary receiver at once: the probe sends one; more are refused (429), whoever sends them. */
export const CANARY_RECEIVER_CONCURRENCY = 2;
export class CanaryReceiver extends Construct {
  readonly handler: ServiceFunction;
  readonly url: FunctionUrl;
  readonly secret: string;

  constructor(scope: Construct, id: string, props: CanaryReceiverProps) {
    super(scope, id);
    // arn:…:stack/<name>/<uuid>: the uuid's 32 hex digits, valid base64, are 24 random bytes of key.
    const stackUuid = Fn.select(2, Fn.split('/', Aws.STACK_ID));
    this.secret = Fn.join('', [SECRET_PREFIX, Fn.join('', Fn.split('-', stackUuid))]);
    this.handler = new ServiceFunction(this, 'Handler', {
      description: "Contacts canary receiver: the webhook destination of the alert deliverer's pre-traffic check (verifies the signature, keeps nothing)",
      entry: 'alerts/canary-receiver-entry.ts',
      timeout: Duration.seconds(5),
      memorySize: 128,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
      environment: { CANARY_WEBHOOK_SECRET: this.secret, LOG_LEVEL: props.logLevel },
    });
    (this.handler.node.defaultChild as CfnFunction).reservedConcurrentExecutions = CANARY_RECEIVER_CONCURRENCY;
    this.url = this.handler.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
  }
}
