/**
 * What a hand-written reader makes of an input: its value, or every problem
 * found in it (in the order a caller should read them). The ingest API's
 * body readers give one (lambda/ingest/payloads.ts); the route step that
 * answers 422 with the problems takes one (lambda/infrastructure/http/steps/read-body.ts).
 */
export type Reading<T> = { ok: true; value: T } | { ok: false; problems: string[] };
