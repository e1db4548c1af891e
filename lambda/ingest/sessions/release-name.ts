/** Characters of a release name kept: as an event's release (lambda/ingest/limits.ts, EVENT_TEXT). Here alone, so the control room can say it without the ingest's modules. */
export const RELEASE_MAX = 200;
