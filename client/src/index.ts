/**
 * The typed client of the contacts API: `new ContactsClient({ apiKey, baseUrl })`.
 * No dependency beyond the platform's fetch and WebCrypto (Node 20+, Deno,
 * Bun, edge runtimes); servers only.
 */
export { ContactsClient, type CallOptions, type ContactsClientOptions, type Operation, type RetryEvent } from './client.js';
export { contactId } from './contact-id.js';
export { parseRateLimit, type RateLimitStatus } from './rate-limit.js';
export {
  ContactsApiError,
  ContactsConfigError,
  ContactsError,
  ContactsNetworkError,
  ContactsTimeoutError,
  InvalidEmailError,
} from './errors.js';
export type {
  Contact,
  ContactAnswer,
  Enrichment,
  ErrorAnswer,
  UpsertContactAnswer,
  UpsertContactAnswer as UpsertContactResult,
  UpsertContactRequest,
  UpsertContactRequest as UpsertContactInput,
} from './schema.js';
