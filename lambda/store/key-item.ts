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
  /** Fixed-window throttling state: the current window (epoch minute) and its count. */
  rlWindow?: number;
  rlCount?: number;
  /** The token of the last counted request: tells an SDK retry of a write that landed from a new request. */
  rlLastRequest?: string;
}
