/**
 * Names shared by the API Lambda (which emits them) and the stack (whose
 * alarms and dashboard read them). Metrics are CloudWatch embedded metric
 * format lines on stdout: no API calls.
 */
export const SERVICE_NAME = 'contacts-api';
/** The `service` of the ingest Lambda's log lines and metrics (its alarms and dashboard row read it). */
export const INGEST_SERVICE_NAME = 'contacts-ingest';
/** The `service` field of the control-room Lambda's log lines. */
export const CONTROL_ROOM_SERVICE_NAME = 'contacts-control-room';
/** The alert functions' service names (docs/alerts.md). */
export const NOTIFIER_SERVICE_NAME = 'contacts-alert-notifier';
export const DELIVERER_SERVICE_NAME = 'contacts-alert-deliverer';
/** The `service` field of the tally's log lines (the stream consumer that counts events into issues). */
export const TALLY_SERVICE_NAME = 'contacts-tally';
/** The `service` of the source maps API's log lines and metrics (docs/source-maps.md). */
export const SOURCEMAPS_SERVICE_NAME = 'contacts-sourcemaps';
/** The namespace of the metrics written locally (npm start, the tests); a stack writes in its own (below). */
export const METRICS_NAMESPACE = 'ContactsService';

/**
 * A stack's own metrics namespace, `ContactsService/<stackName>`: two stacks
 * in one account (ContactsDev, ContactsService) never share a series, so
 * version 8 of one is never judged by version 8 of the other. The stack sets
 * it as each function's `POWERTOOLS_METRICS_NAMESPACE`, and its alarms and
 * dashboard read it.
 */
export const stackMetricsNamespace = (stackName: string): string => `${METRICS_NAMESPACE}/${stackName}`;

/**
 * The service name the logs and metrics carry: `POWERTOOLS_SERVICE_NAME`,
 * which the stack sets for each function; else `fallback`, the API's own
 * (locally, where both APIs share one process and no variable tells them apart).
 */
export function serviceNameFromEnv(env: NodeJS.ProcessEnv = process.env, fallback: string = SERVICE_NAME): string {
  return env.POWERTOOLS_SERVICE_NAME?.trim() || fallback;
}

/** The levels `LOG_LEVEL` takes (the stack's `logLevel` option), quietest last. */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Dimension sets: every metric carries `service`; `Requests` also `route` and
 * `statusClass`; on Lambda, `RequestsTotal` and `ServerErrors` (and a
 * consumer's `BatchItems` and `FailedBatchItems`) also `functionVersion`, the
 * published version that answered, which is how a deployment's alarms judge
 * the new version alone (lib/gradual-deployment.ts).
 */
export const DIMENSIONS = {
  service: 'service',
  route: 'route',
  statusClass: 'statusClass',
  functionVersion: 'functionVersion',
} as const;

export const METRIC = {
  /** Count per request, dimensions service + route ("POST /api/v1/contacts", "unmatched") + statusClass ("2xx"…"5xx"). */
  requests: 'Requests',
  /** Count per request, dimension service only: the totals the alarms divide by. */
  requestsTotal: 'RequestsTotal',
  contactsCreated: 'ContactsCreated',
  contactsUpdated: 'ContactsUpdated',
  /** 429 answers. */
  rateLimited: 'RateLimited',
  /** 503 answers (storage unavailable or timeout). */
  storageUnavailable: 'StorageUnavailable',
  /** 5xx answers of any kind (503 included). */
  serverErrors: 'ServerErrors',
  /** Milliseconds per DynamoDB call (one value per call). */
  dynamoLatency: 'DynamoDBLatency',
  /** DynamoDB calls made by one request. */
  dynamoCalls: 'DynamoDBCalls',
  /** Ingest API, per request: events stored now, events the factory already had (retries), events refused (422 or listed in `rejected`). */
  eventsAccepted: 'EventsAccepted',
  eventsDuplicate: 'EventsDuplicate',
  eventsRejected: 'EventsRejected',
  /** Of the accepted: stored but grouped into no issue (browser extension, cross-origin "Script error."). */
  eventsFiltered: 'EventsFiltered',
  /** Sentry protocol, per request: items other than events, accepted and dropped; one metric per item type (`SentryItemsDropped_session`…). */
  sentryItemsDropped: 'SentryItemsDropped',
  /** Ingest API, per request: session updates and aggregate rows recorded (docs/release-health.md), and those dropped (unreadable, or past a visitor's cap). */
  sessionUpdates: 'SessionUpdates',
  sessionAggregates: 'SessionAggregates',
  sessionsDropped: 'SessionsDropped',
  /** Ingest API: feature requests created (not the repeats of one). */
  featureRequestsCreated: 'FeatureRequestsCreated',
  /** Ingest API: requests refused for their Origin (missing, or not on the key's list). */
  originsRefused: 'OriginsRefused',
  /** Ingest API: sightings of a secret key (it leaked: rotate it). */
  exposedSecretKeys: 'ExposedSecretKeys',
  /** A stream or queue consumer, per batch: the records it was handed, and those it answered as failed (batchItemFailures). */
  batchItems: 'BatchItems',
  failedBatchItems: 'FailedBatchItems',
} as const;

/**
 * Ingest API, per request: values the scrubber replaced in the reports
 * stored now, one metric per rule (docs/privacy.md#scrubbing), sent only by
 * a request that replaced some. Keyed by the rule's name (lambda/ingest/scrub/rule.ts).
 */
export const SCRUBBED_METRIC = {
  pem: 'ScrubbedPem',
  jwt: 'ScrubbedJwt',
  'service-key': 'ScrubbedServiceKey',
  token: 'ScrubbedToken',
  'aws-key': 'ScrubbedAwsKey',
  bearer: 'ScrubbedBearer',
  'url-password': 'ScrubbedUrlPassword',
  email: 'ScrubbedEmail',
  iban: 'ScrubbedIban',
  card: 'ScrubbedCard',
  ip: 'ScrubbedIp',
  secret: 'ScrubbedSecret',
} as const;

/** The response header that carries the request id also written in the request's log line. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
