/**
 * The browser SDK of the contacts service's ingest API (docs/browser-sdk.md).
 * The same functions are the package's named exports and, in the one-file
 * build, the members of `window.ContactsIngest`.
 */
export { captureException, captureMessage, flush, init, submitFeatureRequest } from './client.js';
export type { CaptureOptions, FeatureRequest, FeatureRequestAnswer, IngestEvent, InitOptions, MessageOptions, Pattern, Reporter } from './types.js';
