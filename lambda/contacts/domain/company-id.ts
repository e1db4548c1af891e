import { sha256Hex } from '../../kernel/hash';

/** The shape of a company id: `co_` and 16 lowercase hex characters. */
export const COMPANY_ID_PATTERN = /^co_[0-9a-f]{16}$/;

/**
 * Deterministic company id: `co_` + the first 16 hex characters of
 * sha256("<factoryId>:<normalized domain>"). The same factory and domain always
 * give the same id, so linking a contact needs no read.
 */
export function companyId(factoryId: string, normalizedDomain: string): string {
  return `co_${sha256Hex(`${factoryId}:${normalizedDomain}`).slice(0, 16)}`;
}
