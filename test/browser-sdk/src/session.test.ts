import { noteError, sessionBody, type PageSession } from '../../../browser-sdk/src/session';

/** The page-load session's rules (browser-sdk/src/session.ts): how errors move its status, and the body each update sends. */
const fresh = (): PageSession => ({ sid: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', started: '2026-12-06T12:00:00.000Z', status: 'ok', errors: 0 });

describe('noteError', () => {
  test('a handled error makes an ok session errored: an update is due', () => {
    const session = fresh();
    expect(noteError(session, false)).toBe(true);
    expect(session).toMatchObject({ status: 'errored', errors: 1 });
  });

  test('an unhandled error crashes it, from ok or errored: an update is due', () => {
    const fromOk = fresh();
    expect(noteError(fromOk, true)).toBe(true);
    expect(fromOk).toMatchObject({ status: 'crashed', errors: 1 });
    const fromErrored = fresh();
    noteError(fromErrored, false);
    expect(noteError(fromErrored, true)).toBe(true);
    expect(fromErrored).toMatchObject({ status: 'crashed', errors: 2 });
  });

  test('errors after the status they reach only count: no update is due, and a crash stays a crash', () => {
    const session = fresh();
    noteError(session, false);
    expect(noteError(session, false)).toBe(false);
    noteError(session, true);
    expect(noteError(session, false)).toBe(false);
    expect(noteError(session, true)).toBe(false);
    expect(session).toMatchObject({ status: 'crashed', errors: 5 });
  });
});

describe('sessionBody', () => {
  test('says init until an update was answered, and the environment only when set', () => {
    const session = fresh();
    expect(JSON.parse(sessionBody(session, 'web@1.4.2'))).toEqual({
      session: { sid: session.sid, init: true, started: session.started, status: 'ok', errors: 0, release: 'web@1.4.2' },
    });
    session.acked = true;
    expect(JSON.parse(sessionBody(session, 'web@1.4.2', 'staging')).session).toMatchObject({ init: false, environment: 'staging' });
  });
});
