/**
 * The path prefix of each API of the host, free of imports: the route
 * tables (contacts/routes.ts, ingest/routes.ts) and the stack
 * (lib/ingest-api.ts, which routes the prefix to its own function) read
 * them from here. The ingest function also serves the Sentry protocol
 * (`sentry`: docs/sentry-sdks.md).
 */
export const API_PREFIXES = { contacts: '/api/v1/', ingest: '/ingest/v1/', sentry: '/ingest/sentry/' } as const;
