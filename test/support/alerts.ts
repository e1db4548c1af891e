import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DeliveryMessage, DeliveryQueue } from '../../lambda/alerts/ports';

/** An issue item of the reports table as the stream shows it. */
export function issueItem(factoryId: string, issueId: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pk: `issue#${factoryId}#${issueId}`,
    factoryId,
    title: 'TypeError: x is undefined',
    fingerprint: ['error', 'TypeError', 'x is undefined'],
    status: 'open',
    count: 1,
    firstSeen: '2026-11-25T14:02:00.000Z',
    lastSeen: '2026-11-25T14:02:00.000Z',
    lastEventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11',
    expiresAt: 1_900_000_000,
    ...fields,
  };
}

let sequence = 0;

/** A stream record of one write of an item: its images before and after, as DynamoDB Streams hands them to Lambda. */
export function streamRecord(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): DynamoDBRecord {
  const image = (item: Record<string, unknown> | undefined) =>
    item ? (marshall(item, { removeUndefinedValues: true }) as Record<string, LambdaAttributeValue>) : undefined;
  const number = String(++sequence).padStart(21, '0');
  const key = String((after ?? before)?.pk);
  return {
    eventID: `event-${number}`,
    eventName: before === undefined ? 'INSERT' : after === undefined ? 'REMOVE' : 'MODIFY',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      Keys: { pk: { S: key } },
      ...(before ? { OldImage: image(before) } : {}),
      ...(after ? { NewImage: image(after) } : {}),
      SequenceNumber: number,
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

export const streamEvent = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

/** A queue that keeps what it is given: the messages, with their delays. */
export class CapturingQueue implements DeliveryQueue {
  readonly messages: { message: DeliveryMessage; delaySeconds: number }[] = [];
  async enqueue(message: DeliveryMessage, delaySeconds: number): Promise<void> {
    this.messages.push({ message, delaySeconds });
  }
  take(): { message: DeliveryMessage; delaySeconds: number }[] {
    return this.messages.splice(0);
  }
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted, requests or not. */
  connections(): number;
  /**
   * The requests whose signature the Standard Webhooks library verified with
   * this secret; `sentAt` gives the time to verify each at when the sender ran
   * on a clock of the test's (the library refuses timestamps 5 minutes off).
   */
  verifiedWith(secret: string, sentAt?: (entry: Received) => number): Received[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1: answers each POST with `status(n)` (n from 1)
 * and keeps what it received.
 */
export async function startReceiver(status: (n: number, request: Received) => number = () => 204, answer: (n: number) => string = () => ''): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body, path: request.url ?? '' };
      received.push(entry);
      const code = status(received.length, entry);
      response.writeHead(code, code >= 300 && code < 400 ? { location: `http://127.0.0.1:${port}/redirected` } : {});
      response.end(answer(received.length));
    });
  });
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    connections: () => connections,
    verifiedWith: (secret, sentAt) =>
      received.filter((entry) => {
        const clock = sentAt ? jest.spyOn(Date, 'now').mockReturnValue(sentAt(entry)) : undefined;
        try {
          new Webhook(secret).verify(entry.body, entry.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        } finally {
          clock?.mockRestore();
        }
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
