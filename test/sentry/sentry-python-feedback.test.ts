import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { CONTROL_CALLER } from '../support/control-memory';
import { tallied } from '../support/tally';
import {
  bearer,
  issueKey,
  issuePublishableKey,
  newFactoryId,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  type LocalApi,
} from '../support/local-api';

/**
 * Python's official sentry-sdk, unmodified (Debian's python3-sentry-sdk), sends an error and then a user's report on
 * it (a legacy `user_report` item): the report is the factory's feedback, tied to the error's issue and to the
 * contact of its email, and its secret scrubbed (docs/feedback.md). Skipped, saying why, where sentry_sdk cannot be
 * imported.
 */
const PYTHON = '/usr/bin/python3';
function sdkVersion(): string | undefined {
  try {
    return execFileSync(PYTHON, ['-c', 'import sentry_sdk; print(sentry_sdk.VERSION)'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}
const version = sdkVersion();
const pythonTest = version === undefined ? test.skip : test;
const title =
  "a user_report sent by the unmodified Python sentry-sdk after its error shows up in `feedback.list`, tied to the error's issue and the email's contact";

let api: LocalApi;
beforeAll(async () => {
  if (version !== undefined) api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api?.close();
});

pythonTest(version === undefined ? `${title} (skipped: ${PYTHON} cannot import sentry_sdk)` : `${title} (sentry-sdk ${version})`, async () => {
  const factoryId = newFactoryId('pyfb');
  const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers: true });
  const email = 'grace.hopper@navy.example';
  const created = await api.request('POST', '/api/v1/contacts', { headers: bearer((await issueKey(factoryId)).key), body: { email } });
  expect(created.status).toBe(201);
  await promisify(execFile)(PYTHON, [join(__dirname, 'python-feedback-app.py')], {
    env: { ...process.env, SENTRY_DSN: dsnFor(api.baseUrl, key, keyId), REPORTER_EMAIL: email, COMMENTS: 'Charged twice, card 4111 1111 1111 1111' },
    timeout: 60_000,
  });
  const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
  const listed = await handleControlRequest(control, { operation: 'feedback.list', factoryId }, { principal: CONTROL_CALLER });
  expect(listed.status).toBe(200);
  const feedback = listed.body.feedback as Record<string, unknown>[];
  expect(feedback).toEqual([
    expect.objectContaining({
      source: 'user_report',
      contactId: created.json.contact.id,
      issueId: expect.stringMatching(/^iss_/),
      reporter: { email, name: 'Grace' },
    }),
  ]);
  expect(feedback[0]?.message).toMatch(/^Charged twice, card \[Filtered:card\]$/);
  // The issue item is the tally's: counted from the table's stream.
  await tallied();
  const issue = await handleControlRequest(control, { operation: 'issues.show', factoryId, issueId: feedback[0]?.issueId }, { principal: CONTROL_CALLER });
  expect((issue.body.issue as { title: string }).title).toContain('payment 42 declined');
});
