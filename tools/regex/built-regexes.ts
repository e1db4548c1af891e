import { HOSTNAME } from '../../lambda/contacts/domain/normalize-domain';
import { HEX } from '../../lambda/contacts/enrichment/progress';
import { CONTACTS_API } from '../../lambda/contacts/api/routes';
import { routePattern } from '../../lambda/infrastructure/http/router';
import { INGEST_API } from '../../lambda/ingest/api/routes';
import { EMAIL_PATTERN } from '../../lambda/ingest/scrub/email';
import { SOURCEMAPS_API } from '../../lambda/ingest/sourcemaps/api/routes';

/**
 * The regular expressions the shipped code builds at run time, by the file
 * that builds them: every place of lambda/ that calls `new RegExp` is a key
 * here (test/repo/linear-regexes.test.ts holds the two lists equal), and
 * gives the patterns it can build, checked like the literals.
 */
export const BUILT_REGEXES: Readonly<Record<string, () => RegExp[]>> = {
  // One per route of every API: what a request's path is matched with.
  'lambda/infrastructure/http/router.ts': () =>
    [CONTACTS_API, INGEST_API, SOURCEMAPS_API].flatMap((api) => api.routes.map((route) => routePattern(route.path))),
  'lambda/contacts/domain/normalize-domain.ts': () => [HOSTNAME],
  'lambda/contacts/enrichment/progress.ts': () => [HEX],
  'lambda/ingest/scrub/email.ts': () => [EMAIL_PATTERN],
};
