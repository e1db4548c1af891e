import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoAlertStore } from '../infrastructure/store/alerts/dynamo-alert-store';
import { DEPLOYED_POLICY, LOCAL_POLICY, type AddressPolicy } from './address-policy';
import type { CanaryDestination } from './canary-delivery';
import { DEFAULT_LINK_BASE } from './payload';
import type { AlertStore, DeliveryQueue, PlatformTopic } from './ports';
import { SnsPlatformTopic } from './sns-platform-topic';
import { SqsDeliveryQueue } from './sqs-delivery-queue';

/** The alert store on DynamoDB: the notifier, the deliverer, the control room and npm start all wire it here. */
export function alertStoreOf(doc: DynamoDBDocumentClient, tableName: string): AlertStore {
  return new DynamoAlertStore(doc, tableName);
}

/**
 * Which destinations may be reached: public addresses only, unless
 * ALERTS_ALLOW_LOOPBACK=true, which only npm start and the local commands
 * set (the stack never does), so that a receiver on the same machine can be tested.
 */
export function addressPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): AddressPolicy {
  return env.ALERTS_ALLOW_LOOPBACK === 'true' ? LOCAL_POLICY : DEPLOYED_POLICY;
}

/** Where payload links point: the stack's alertLinkBase option, or the local control room app. */
export function linkBaseFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.ALERT_LINK_BASE || DEFAULT_LINK_BASE;
}

/** SDK clients for SQS and SNS as the functions use them: a few attempts, bounded waits. */
const AWS_CLIENT = { maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } };

/** The delivery queue named by DELIVERY_QUEUE_URL (the stack sets it). */
export function sqsQueueFromEnv(env: NodeJS.ProcessEnv = process.env): DeliveryQueue {
  const url = env.DELIVERY_QUEUE_URL;
  if (!url) throw new Error('DELIVERY_QUEUE_URL is not set: the stack gives it to the alert functions (lib/alerts.ts)');
  return new SqsDeliveryQueue(new SQSClient(AWS_CLIENT), url);
}

/** The platform topic named by ALERT_TOPIC_ARN, when the stack gives one. */
export function platformTopicFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformTopic | undefined {
  return env.ALERT_TOPIC_ARN ? new SnsPlatformTopic(new SNSClient(AWS_CLIENT), env.ALERT_TOPIC_ARN) : undefined;
}

/** The stack's canary receiver, the destination of the deliverer's pre-traffic probe (lib/canary-receiver.ts), when the stack gives one. */
export function canaryDestinationFromEnv(env: NodeJS.ProcessEnv = process.env): CanaryDestination | undefined {
  const url = env.CANARY_RECEIVER_URL;
  const secret = env.CANARY_WEBHOOK_SECRET;
  return url && secret ? { url, secret } : undefined;
}
