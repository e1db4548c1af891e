/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles only (an
 * esbuild alias in lib/service-function.ts). The SDK's protocols load it
 * with a dynamic import, for operations that stream events; DynamoDB has
 * none, and of S3's only SelectObjectContent does (never called here), so
 * the codec (about 15 KB minified) never runs in these functions, yet a
 * bundle inlines every dynamic import. The S3 client resolves its
 * marshaller when it is made: it gets one that fails, loudly, should an
 * operation with an event stream ever be called.
 */
const NO_EVENT_STREAMS =
  'This Lambda bundle has no event-stream codec (lambda/infrastructure/aws-sdk/no-event-streams.ts): no operation it calls streams events.';

const fail = (): never => {
  throw new Error(NO_EVENT_STREAMS);
};

/** A marshaller every method of which throws: what the S3 client holds, unused. */
export function eventStreamSerdeProvider(): { serialize: () => never; deserialize: () => never } {
  return { serialize: fail, deserialize: fail };
}

/** As the SDK's: the client's config gains its marshaller (here, the failing one). */
export function resolveEventStreamSerdeConfig<T extends object>(input: T): T & { eventStreamMarshaller: ReturnType<typeof eventStreamSerdeProvider> } {
  return Object.assign(input, { eventStreamMarshaller: eventStreamSerdeProvider() });
}

export class EventStreamSerde {
  constructor() {
    fail();
  }
}
