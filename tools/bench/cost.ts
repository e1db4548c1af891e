import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * DynamoDB capacity and AWS list prices: the arithmetic behind "cost on
 * paper". Pure functions, no I/O.
 */

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** DynamoDB's size of a number: about one byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** Size of one attribute value by DynamoDB's rules (names are counted by the caller). */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, item) => sum + utf8(item), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, item) => sum + numberSize(item), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, item) => sum + item.length, 0);
  // Lists and maps: 3 bytes of overhead, plus 1 byte per element.
  if (value.L !== undefined) return 3 + value.L.reduce((sum, item) => sum + valueSize(item) + 1, 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((sum, [name, item]) => sum + utf8(name) + valueSize(item) + 1, 0);
  return 0;
}

/** Size of an item (marshalled): attribute names plus values, in bytes. */
export function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** Write request units: 1 per started KB, at least 1 (failed conditional writes included). */
export const writeUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));

/** Read request units of a strongly consistent read: 1 per started 4 KB, at least 1 (a miss included). */
export const strongReadUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / 4096));

/** us-east-1 list prices, USD (see `PRICES_NOTE`). */
export interface Prices {
  apiGatewayRestPerMillion: number;
  lambdaRequestsPerMillion: number;
  /** Lambda on arm64, per GB-second. */
  lambdaArmPerGbSecond: number;
  dynamoWritePerMillionUnits: number;
  dynamoReadPerMillionUnits: number;
  /** CloudWatch Logs ingestion (standard class), per GB. */
  logsIngestionPerGb: number;
}

export const US_EAST_1_PRICES: Prices = {
  apiGatewayRestPerMillion: 3.5, // first 333 million requests a month
  lambdaRequestsPerMillion: 0.2,
  lambdaArmPerGbSecond: 0.0000133334, // first 7.5 billion GB-s a month
  dynamoWritePerMillionUnits: 0.625, // on-demand, standard table class (price since Nov 2024)
  dynamoReadPerMillionUnits: 0.125,
  logsIngestionPerGb: 0.5,
};

export const PRICES_NOTE =
  'us-east-1 list prices, first pricing tier, no free tier; checked on 2026-11-22 against published copies (AWS whitepaper on API Gateway costs for REST; AWS posts on Lambda arm64 tiers and on the reduced DynamoDB on-demand price; CloudWatch Logs standard class, from third-party guides), not fetched live from AWS: confirm on aws.amazon.com/api-gateway/pricing, /lambda/pricing, /dynamodb/pricing/on-demand and /cloudwatch/pricing before quoting.';

export interface RequestProfile {
  readUnits: number;
  writeUnits: number;
  /** Billed Lambda duration (Lambda bills per started millisecond). */
  lambdaMs: number;
  lambdaMemoryMb: number;
  /** Bytes the function writes to its log per request (request log line, EMF metrics). */
  logBytes: number;
}

export interface CostPerMillion {
  apiGateway: number;
  lambda: number;
  dynamo: number;
  logs: number;
  total: number;
}

/** USD per million requests of one shape. */
export function costPerMillion(request: RequestProfile, prices: Prices = US_EAST_1_PRICES): CostPerMillion {
  const million = 1_000_000;
  const gbSeconds = (request.lambdaMemoryMb / 1024) * (Math.ceil(request.lambdaMs) / 1000);
  const apiGateway = prices.apiGatewayRestPerMillion;
  const lambda = prices.lambdaRequestsPerMillion + gbSeconds * million * prices.lambdaArmPerGbSecond;
  const dynamo = request.writeUnits * prices.dynamoWritePerMillionUnits + request.readUnits * prices.dynamoReadPerMillionUnits;
  const logs = ((request.logBytes * million) / 1024 ** 3) * prices.logsIngestionPerGb;
  return { apiGateway, lambda, dynamo, logs, total: apiGateway + lambda + dynamo + logs };
}

/**
 * The Lambda duration assumed for a request: each sequential round costs one
 * in-region DynamoDB round trip, plus the handler's own CPU time measured
 * here, scaled to the CPU share a function of that memory gets (1,769 MB is
 * one full vCPU).
 */
export function assumedLambdaMs(rounds: number, cpuMsHere: number, options: { roundTripMs: number; memoryMb: number }): number {
  const cpuShare = Math.min(1, options.memoryMb / 1769);
  return Math.ceil(rounds * options.roundTripMs + cpuMsHere / cpuShare);
}
