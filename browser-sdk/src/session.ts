/**
 * The page's session (release health, docs/release-health.md): one per page
 * load, started by the first init() that names a release. It says `ok`
 * until the page captures an error (`errored`) or has an unhandled one
 * (`crashed`, which stays). Nothing of it is kept in the browser: it lives
 * and ends with the page.
 */

/** What a session says of itself as the page goes. */
export type SessionStatus = 'ok' | 'errored' | 'crashed';

export interface PageSession {
  sid: string;
  /** When the page started it, ISO 8601. */
  started: string;
  status: SessionStatus;
  errors: number;
  /** An update was answered 2xx: later ones no longer say `init` (which counts the session as started). */
  acked?: boolean;
}

/**
 * The session once an error is captured (`unhandled`: the page did not
 * handle it): whether its status changed, and so an update is due. A page's
 * further errors only count.
 */
export function noteError(session: PageSession, unhandled: boolean): boolean {
  session.errors += 1;
  const status = unhandled || session.status === 'crashed' ? 'crashed' : 'errored';
  const changed = status !== session.status;
  session.status = status;
  return changed;
}

/** The body of `POST /ingest/v1/sessions` for the session as it is now. */
export const sessionBody = ({ sid, started, status, errors, acked }: PageSession, release: string, environment?: string): string =>
  JSON.stringify({ session: { sid, init: !acked, started, status, errors, release, environment } });
