import type { KeyAuthorizer } from '../../../contacts/domain/ports';
import { SOURCEMAPS_SERVICE_NAME } from '../../../infrastructure/observability/names';
import type { MapUploads } from '../upload/ports';
import { authenticate } from '../../../contacts/api/authenticate';
import { newContactsSlot, type ContactsSlot } from '../../../contacts/api/contacts-slot';
import { noCorsHeaders } from '../../../contacts/api/no-cors-headers';
import { rateLimitHeaders } from '../../../contacts/api/rate-limit-headers';
import { refuseOrigin } from '../../../contacts/api/refuse-origin';
import { noCounts } from '../../../infrastructure/http/middleware/request-metrics';
import { createHandler, route, type ApiHandler, type ApiSpec } from '../../../infrastructure/http/pipeline';
import { API_PREFIXES } from '../../../infrastructure/http/prefixes';
import { bodyLimit } from '../../../infrastructure/http/steps/body-limit';
import { completeUploadOperation } from './complete-upload';
import { requestUploadOperation } from './request-upload';
import { completeBody, uploadRequestBody } from './upload-bodies';

/** What the source maps API needs: the keys (the factory's secret keys) and where maps are uploaded and kept. */
export interface SourceMapsDependencies {
  keys: KeyAuthorizer;
  uploads: MapUploads;
  now?: () => number;
}

/** An announcement is a ref and two numbers: anything bigger is not one. */
const BODY_LIMIT_BYTES = 4 * 1024;

/**
 * The key check without the contacts API's speculative start: this API has
 * no reads to start early, so every request waits for its key's answer.
 */
const waitingForTheCheck = (keys: KeyAuthorizer): KeyAuthorizer => ({
  authorize: (keyHash, nowMs) => keys.authorize(keyHash, nowMs),
  knownCaller: () => undefined,
});

/**
 * The source maps API (docs/source-maps.md#the-upload-api): a customer's CI
 * uploads its maps with a secret key. The map's bytes never pass through
 * this function (a 20 MB map is over Lambda's payload limit): the CI
 * announces a map, PUTs it to the presigned URL answered, then completes.
 * Server-to-server like the contacts API, with its guards: no CORS, an
 * Origin refused, the factory from the secret key only, the key's rate limit.
 *
 * Error precedence: 403 Origin; 401 key; 429 rate; 404/405 path; 413 body
 * over 4 KiB (or a map announced over the map limit); 400 not JSON; 422
 * invalid fields, or a map refused at completion (with the reason); 404 an
 * upload never PUT; 503 storage unavailable.
 */
// Its guards and answers are the contacts API's (a secret key, its rate headers), so its requests keep the contacts slot.
export const SOURCEMAPS_API: ApiSpec<SourceMapsDependencies, ContactsSlot> = {
  name: 'sourcemaps',
  service: SOURCEMAPS_SERVICE_NAME,
  prefix: API_PREFIXES.sourcemaps,
  home: 'The source maps API lives under /sourcemaps/v1/uploads.',
  guards: (deps) => [refuseOrigin(), authenticate(waitingForTheCheck(deps.keys), deps.now)],
  answers: () => [noCorsHeaders(), rateLimitHeaders()],
  countsOf: noCounts,
  slot: newContactsSlot,
  unavailable: 'The source maps store is temporarily unavailable: retry the same request (an upload is safe to repeat).',
  routes: [
    route({
      method: 'POST',
      path: '/sourcemaps/v1/uploads',
      checks: [bodyLimit(BODY_LIMIT_BYTES)],
      body: uploadRequestBody,
      operation: (deps) => requestUploadOperation(deps.uploads, deps.now),
    }),
    route({
      method: 'POST',
      path: '/sourcemaps/v1/uploads/{uploadId}/complete',
      checks: [bodyLimit(BODY_LIMIT_BYTES)],
      body: completeBody,
      operation: (deps) => completeUploadOperation(deps.uploads),
    }),
  ],
};

/** The source maps API's handler on the dependencies given: the Lambda entry's and the tests'. */
export function createSourceMapsHandler(deps: SourceMapsDependencies): ApiHandler {
  return createHandler(SOURCEMAPS_API, deps);
}
