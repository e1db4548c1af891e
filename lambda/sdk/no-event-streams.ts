/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles only (an
 * esbuild alias in lib/service-function.ts). The SDK's protocols load it
 * with a dynamic import, for operations that stream events; DynamoDB has
 * none, so its codec (about 15 KB minified) never runs in these functions,
 * yet a bundle inlines every dynamic import. Should an operation with an
 * event stream ever be called, it fails here, loudly.
 */
const NO_EVENT_STREAMS =
  'This Lambda bundle has no event-stream codec (lambda/sdk/no-event-streams.ts): DynamoDB has no event-stream operation.';

export function eventStreamSerdeProvider(): never {
  throw new Error(NO_EVENT_STREAMS);
}

export class EventStreamSerde {
  constructor() {
    throw new Error(NO_EVENT_STREAMS);
  }
}
