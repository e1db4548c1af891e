import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_ADDRESS_LIMITS, DEFAULT_REPORT_RETENTION_DAYS, type AddressLimits } from '../limits';
import { DynamoAddressLimiter } from '../../infrastructure/store/reports/dynamo-address-limiter';
import { createDocumentClient, dynamoConfigFromEnv } from '../../infrastructure/store/dynamo-client';
import { DynamoIngestKeys, KEY_LEASE_MS } from '../../infrastructure/store/keys/dynamo-ingest-keys';
import { DynamoIssueLimiter, ISSUE_LEASE_MS } from '../../infrastructure/store/reports/dynamo-issue-limiter';
import { DynamoReportStore } from '../../infrastructure/store/reports/dynamo-report-store';
import { DynamoPersonSecret } from '../../infrastructure/store/keys/dynamo-person-secret';
import { PersonKeys } from '../../kernel/person-key';
import { DynamoFeedbackStore } from '../../infrastructure/store/feedback/dynamo-feedback-store';
import { DynamoVisitorSalts } from '../../infrastructure/store/keys/dynamo-visitor-salts';
import { tableNamesFromEnv, type TableNames } from '../../infrastructure/store/schema';
import { IngestFrameResolver, RESOLVE_BUDGET_MS } from '../sourcemaps/ingest-frames';
import { cacheBytesFromEnv, MapCache } from '../sourcemaps/map-cache';
import { SourceMapLoader } from '../sourcemaps/map-loader';
import { sourceMapBudgetFromEnv } from '../sourcemaps/limits';
import type { SourceMapStore } from '../sourcemaps/ports';
import { mapReaderFromEnv } from '../../infrastructure/store/source-maps/s3-map-reader';
import type { IngestDependencies } from './routes';

export interface IngestWiring {
  retentionDays?: number;
  /** The per-address limits (tests and tools that send everything from one address raise them). */
  addressLimits?: AddressLimits;
  /** How long a container answers for a key, and hands out a lease of a key's or an issue's requests (tests set 0: every request writes). */
  leaseMs?: number;
  /** Where the factories' source maps are (docs/source-maps.md); without, frames are grouped as sent. */
  sourceMaps?: SourceMapStore;
  /**
   * Count a visitor's plain requests in the container and write its limiter item only near its limit
   * (lambda/kernel/rate-view.ts; docs/capacity.md#the-visitors-limit-counted-in-the-container). The deployed
   * function does; without, every request writes and the per-address limit holds exactly across containers.
   */
  countVisitorsInContainer?: boolean;
  /** Bytes of parsed maps a container keeps (map-cache.ts). */
  sourceMapCacheBytes?: number;
  /** The most a request waits for maps (RESOLVE_BUDGET_MS unless given). */
  sourceMapBudgetMs?: number;
}

/** The resolve step's resolver on a map store: one per container, so its parsed maps are kept between requests. */
export function frameResolverOf(store: SourceMapStore, cacheBytes?: number, budgetMs = RESOLVE_BUDGET_MS): IngestFrameResolver {
  return new IngestFrameResolver(new SourceMapLoader(store, new MapCache(cacheBytes)), budgetMs);
}

/**
 * The ingest API on DynamoDB (with contacts/contacts-wiring.ts, the only
 * modules of lambda/infrastructure/http that know the stores are DynamoDB): the keys table
 * for the key calls, the daily visitor salts and the person secret, the reports table for reports and limiter items (per
 * address, per issue).
 */
export function ingestDynamoDependencies(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'keys' | 'reports'>,
  wiring: IngestWiring = {},
): IngestDependencies {
  const persons = new PersonKeys(new DynamoPersonSecret(doc, tables.keys));
  return {
    keys: new DynamoIngestKeys(doc, tables.keys, wiring.leaseMs ?? KEY_LEASE_MS),
    limiter: new DynamoAddressLimiter(doc, tables.reports, wiring.addressLimits ?? DEFAULT_ADDRESS_LIMITS, {
      countInContainer: wiring.countVisitorsInContainer === true,
    }),
    issueLimits: new DynamoIssueLimiter(doc, tables.reports, wiring.leaseMs ?? ISSUE_LEASE_MS),
    // Reports naming a reporter's email carry its person key (docs/privacy.md#finding-a-persons-data).
    reports: new DynamoReportStore(doc, tables.reports, persons),
    feedback: new DynamoFeedbackStore(doc, tables, persons),
    visitorSalts: new DynamoVisitorSalts(doc, tables.keys),
    retentionDays: wiring.retentionDays ?? DEFAULT_REPORT_RETENTION_DAYS,
    ...(wiring.sourceMaps ? { frames: frameResolverOf(wiring.sourceMaps, wiring.sourceMapCacheBytes, wiring.sourceMapBudgetMs) } : {}),
  };
}

/** Days reports are kept, from `REPORT_RETENTION_DAYS` (the stack's reportRetentionDays option). */
export function retentionDaysFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.REPORT_RETENTION_DAYS);
  return Number.isSafeInteger(days) && days > 0 ? days : DEFAULT_REPORT_RETENTION_DAYS;
}

/** What the ingest Lambda entry point runs on, from the function's environment. */
export function ingestContainerDependencies(env: NodeJS.ProcessEnv = process.env): IngestDependencies {
  return ingestDynamoDependencies(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env), {
    retentionDays: retentionDaysFromEnv(env),
    countVisitorsInContainer: true,
    ...sourceMapsFromEnv(env),
  });
}

/**
 * The maps' store from SOURCE_MAPS_BUCKET: the S3 bucket the stack grants this function's reads on (S3_ENDPOINT
 * names the embedded store under npm start and in the tests). Whenever the variable is unset there is no store:
 * frames are grouped as sent, exactly as before source maps. A test's npm start may wait longer for maps than
 * RESOLVE_BUDGET_MS (sourceMapBudgetFromEnv): a read a loaded machine delayed past the budget would group the
 * event on its minified frames, and the test would see the machine, not the service.
 */
export function sourceMapsFromEnv(env: NodeJS.ProcessEnv): Pick<IngestWiring, 'sourceMaps' | 'sourceMapCacheBytes' | 'sourceMapBudgetMs'> {
  const sourceMaps = mapReaderFromEnv(env);
  const budgetMs = sourceMapBudgetFromEnv(env);
  return sourceMaps ? { sourceMaps, sourceMapCacheBytes: cacheBytesFromEnv(env), ...(budgetMs ? { sourceMapBudgetMs: budgetMs } : {}) } : {};
}
