/**
 * The path prefix of each API of the host, free of imports: the route
 * tables (contacts/routes.ts, ingest/routes.ts, sourcemaps/routes.ts) and the stack
 * (lib/ingest-api.ts, lib/source-maps.ts: each routes its prefix to its own function) read
 * them from here. The ingest function also serves the Sentry protocol
 * (`sentry`: docs/sentry-sdks.md).
 */
export const API_PREFIXES = { contacts: '/api/v1/', ingest: '/ingest/v1/', sentry: '/ingest/sentry/', sourcemaps: '/sourcemaps/v1/' } as const;
