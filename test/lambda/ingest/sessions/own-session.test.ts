import { ownSessionReport, readOwnSession, SESSION_ERRORS_MAX } from '../../../../lambda/ingest/sessions/own-session';

/** The own SDK's session body (lambda/ingest/sessions/own-session.ts): read into the update a Sentry session becomes, or every problem listed. */
const SID = '8F0C1A52-3B6E-4C7E-9A43-2F5D1E0B7C11';
const body = (session: Record<string, unknown>) => ({ session: { sid: SID, started: '2026-12-06T12:00:00.000Z', release: 'web@1.4.2', ...session } });

describe('readOwnSession', () => {
  test('a page-load update becomes a session update: sid lowercased, start in ms, production by default', () => {
    expect(readOwnSession(body({ init: true, status: 'ok', errors: 0 }))).toEqual({
      ok: true,
      value: {
        sid: SID.toLowerCase(),
        init: true,
        status: 'ok',
        errors: 0,
        startedMs: Date.parse('2026-12-06T12:00:00Z'),
        release: 'web@1.4.2',
        environment: 'production',
      },
    });
  });

  test('init, status and errors may be left out (false, ok, 0); the environment is kept when given', () => {
    expect(readOwnSession(body({ environment: 'staging', status: null }))).toMatchObject({
      ok: true,
      value: { init: false, status: 'ok', errors: 0, environment: 'staging' },
    });
  });

  test('errored, crashed and exited are read as sent', () => {
    for (const status of ['errored', 'crashed', 'exited']) expect(readOwnSession(body({ status, errors: 1 }))).toMatchObject({ ok: true, value: { status } });
  });

  test('a body that is not an object, or without a session object, says what to send', () => {
    expect(readOwnSession([])).toEqual({ ok: false, problems: [expect.stringMatching(/^Request body must be a JSON object, like \{"session"/)] });
    expect(readOwnSession({})).toEqual({ ok: false, problems: [expect.stringMatching(/^session is required: send \{"session"/)] });
    expect(readOwnSession({ session: 'x' })).toEqual({ ok: false, problems: [expect.stringMatching(/^session must be an object/)] });
  });

  test('every problem of the session is listed, in field order', () => {
    const reading = readOwnSession({
      session: { sid: 'not-a-uuid', init: 'yes', started: 'yesterday', status: 'unhandled', errors: -1, release: 7, environment: ['x'] },
    });
    expect(reading).toEqual({
      ok: false,
      problems: [
        'session.sid must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got "not-a-uuid")',
        'session.init must be true or false',
        'session.started must be an ISO 8601 time with a zone, like 2026-12-06T12:00:00Z (got "yesterday")',
        'session.status must be one of ok, errored, crashed, exited (got "unhandled")',
        `session.errors must be a whole number from 0 to ${SESSION_ERRORS_MAX.toLocaleString('en-US')}`,
        'session.release must be a string',
        'session.environment must be a string',
      ],
    });
  });

  test('sid, started and release are required; a blank release is refused', () => {
    expect(readOwnSession({ session: {} })).toEqual({
      ok: false,
      problems: [
        'session.sid is required (a UUID)',
        'session.started is required (an ISO 8601 time, like 2026-12-06T12:00:00Z)',
        'session.release is required (the release the page runs, like "web@1.4.2")',
      ],
    });
    expect(readOwnSession(body({ release: ' \u0007 ' }))).toEqual({ ok: false, problems: ['session.release must not be blank'] });
  });

  test('the release and environment are one line, scrubbed and clipped as any text an SDK sends', () => {
    const reading = readOwnSession(body({ release: `web\n${'9'.repeat(300)}`, environment: 'prod token=sk_live_abcdefghijklmnopqrstuvwx' }));
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.value.release).toMatch(/^web 9+$/);
    expect(reading.value.release).toHaveLength(200);
    expect(reading.value.environment).not.toContain('sk_live_abcdefghijklmnopqrstuvwx');
  });

  test('keys named __proto__ or constructor are plain data and read as nothing', () => {
    const raw = JSON.parse(
      `{"__proto__": {"polluted": true}, "session": {"sid": "${SID}", "started": "2026-12-06T12:00:00Z", "release": "web@1", "constructor": 1, "__proto__": {"status": "crashed"}}}`,
    ) as unknown;
    expect(readOwnSession(raw)).toMatchObject({ ok: true, value: { status: 'ok' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a long started text is refused by its length, and the problem quotes 60 characters of it', () => {
    const started = `2026-12-06T12:00:00${'0'.repeat(100_000)}Z`;
    const reading = readOwnSession(body({ started }));
    expect(reading).toEqual({
      ok: false,
      problems: [`session.started must be an ISO 8601 time with a zone, like 2026-12-06T12:00:00Z (got "${started.slice(0, 60)}…")`],
    });
  });
});

describe('ownSessionReport', () => {
  const reading = readOwnSession(body({ init: true }));
  const update = reading.ok ? reading.value : undefined;

  test("the request's visitor is the session's user; without one (no salt) it has none", () => {
    if (!update) throw new Error('the body did not read');
    expect(ownSessionReport(update, 'Vh4x9Q2a')).toEqual({ updates: [{ ...update, did: 'Vh4x9Q2a' }], aggregates: [], discarded: [], invalid: 0 });
    expect(ownSessionReport(update, undefined).updates).toEqual([update]);
    expect(ownSessionReport(update, undefined).updates[0]).not.toHaveProperty('did');
  });
});
