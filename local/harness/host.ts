import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { API_PREFIXES } from '../../lambda/infrastructure/http/prefixes';
import { dispatchByPrefix, type MountedApi } from './dispatch';

/** The APIs of one host. The source maps API is served where its bucket is configured (SOURCE_MAPS_BUCKET). */
export interface HostHandlers {
  contacts: ApiHandler;
  ingest: ApiHandler;
  sourcemaps?: ApiHandler;
}

/**
 * Every API of the host as one handler, by the APIs' prefixes: `/ingest/v1/…` and `/ingest/sentry/…` to the
 * ingest API, `/sourcemaps/v1/…` to the source maps API, the rest to the contacts API.
 */
export function hostHandler(handlers: HostHandlers): ApiHandler {
  const mounted: MountedApi[] = [
    { prefix: API_PREFIXES.ingest, handler: handlers.ingest },
    { prefix: API_PREFIXES.sentry, handler: handlers.ingest },
  ];
  if (handlers.sourcemaps) mounted.push({ prefix: API_PREFIXES.sourcemaps, handler: handlers.sourcemaps });
  return dispatchByPrefix(mounted, handlers.contacts);
}

/**
 * The Lambda entry points' handlers, from the TypeScript sources, configured by the environment as on AWS. Required,
 * not imported: the commands run on tsx's CommonJS hooks alone (package.json), under which an `import()` of a
 * TypeScript file finds no loader; a third less CPU per command start (docs/development.md#where-the-time-goes).
 */
export async function sourceHandlers(env: NodeJS.ProcessEnv = process.env): Promise<HostHandlers> {
  const contacts = require('../../lambda/contacts/api/contacts-entry') as typeof import('../../lambda/contacts/api/contacts-entry');
  const ingest = require('../../lambda/ingest/api/ingest-entry') as typeof import('../../lambda/ingest/api/ingest-entry');
  const sourcemaps = env.SOURCE_MAPS_BUCKET
    ? (require('../../lambda/ingest/sourcemaps/api/sourcemaps-entry') as typeof import('../../lambda/ingest/sourcemaps/api/sourcemaps-entry'))
    : undefined;
  return { contacts: contacts.handler, ingest: ingest.handler, ...(sourcemaps ? { sourcemaps: sourcemaps.handler } : {}) };
}
