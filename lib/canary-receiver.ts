import { Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { FunctionUrlAuthType, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { createHash } from 'node:crypto';
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
 * The secret is derived from the stack and this construct's place in it
 * (it is in the template, readable by whoever reads the stack): it only
 * ever signs the probe's empty payload, and what it guards holds nothing.
 * Not released gradually: it is the probe's fixture, not a function of the
 * service, and no customer traffic reaches it.
 */
export class CanaryReceiver extends Construct {
  readonly handler: ServiceFunction;
  readonly url: FunctionUrl;
  readonly secret: string;

  constructor(scope: Construct, id: string, props: CanaryReceiverProps) {
    super(scope, id);
    const seed = `${Stack.of(this).stackName}/${this.node.addr}/canary-webhook`;
    this.secret = `${SECRET_PREFIX}${createHash('sha256').update(seed).digest('base64')}`;
    this.handler = new ServiceFunction(this, 'Handler', {
      description: "Contacts canary receiver: the webhook destination of the alert deliverer's pre-traffic check (verifies the signature, keeps nothing)",
      entry: 'alerts/canary-receiver-entry.ts',
      timeout: Duration.seconds(5),
      memorySize: 128,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
      environment: { CANARY_WEBHOOK_SECRET: this.secret, LOG_LEVEL: props.logLevel },
    });
    this.url = this.handler.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
  }
}
