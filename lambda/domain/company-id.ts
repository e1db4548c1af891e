import { sha256Hex } from './hash';

/**
 * Deterministic company id: `co_` + the first 16 hex characters of
 * sha256("<factoryId>:<normalized domain>"). The same factory and domain always
 * give the same id, so linking a contact needs no read.
 */
export function companyId(factoryId: string, normalizedDomain: string): string {
  return `co_${sha256Hex(`${factoryId}:${normalizedDomain}`).slice(0, 16)}`;
}
