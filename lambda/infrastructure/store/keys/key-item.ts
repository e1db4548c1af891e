import type { KeyType } from '../../../kernel/api-key';

/** A key item in the keys table. The secret itself is never stored. */
export interface KeyItem {
  keyHash: string;
  keyId: string;
  factoryId: string;
  keyType: KeyType;
  status: 'active' | 'revoked';
  /** Requests per minute. */
  rateLimit: number;
  createdAt: string;
  revokedAt?: string;
  lastUsedAt?: string;
  hint: string;
  /** Publishable keys only: the website origins they are bound to. */
  origins?: string[];
  /** Publishable keys only: requests without an Origin (a customer's servers) may report with it too (`keys create --servers`). */
  servers?: boolean;
  /** Publishable keys only: the project id of the key's Sentry DSN (lambda/ingest/sentry/dsn.ts), digits. */
  sentryProjectId?: string;
  /**
   * The rate limiter's state (lambda/kernel/rate-limit.ts): the theoretical
   * arrival time, microseconds since the epoch. Absent until the key's first
   * request.
   */
  rlTat?: number;
  /** T = 60 s / rateLimit in µs, written at issue: a container's first request of the key needs no read. */
  rlStep?: number;
  /** The token of the last counted request: tells an SDK retry of a write that landed from a new request. */
  rlLastRequest?: string;
  /**
   * Secret keys only: sightings of the key at the ingest API (where browsers
   * call), which means it leaked. First and last time, how many.
   */
  exposedFirstAt?: string;
  exposedLastAt?: string;
  exposedCount?: number;
  /** The token of the last counted sighting (as rlLastRequest, for a retried write). */
  exposedLastRequest?: string;
}
