import type { KeyType } from '../domain/api-key';

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
  /**
   * The rate limiter's state (lambda/domain/rate-limit.ts), microseconds since
   * the epoch: the theoretical arrival time, and the gate (TAT − B·T: a request
   * at or after it is admitted). Absent until the key's first request.
   */
  rlTat?: number;
  rlGate?: number;
  /** T, and T − B·T: the steps the update expressions add, fixed when the key is issued. */
  rlStep?: number;
  rlIdleStep?: number;
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
