import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { storedReports } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';
import { issuesOf } from './sentry-issues';

/**
 * Python's official sentry-sdk, unmodified, as a customer's backend with the
 * printed DSN of a --servers key: it posts errors to the legacy store
 * endpoint, gzip, with X-Sentry-Auth. It runs under Debian's /usr/bin/python3
 * with python3-sentry-sdk (.ci/run installs it); where that cannot import
 * sentry_sdk, the test is skipped and says why.
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
const title = 'the unmodified Python sentry-sdk reports through the printed DSN: each exception is one issue with an exact count and its original frames';

let api: LocalApi;
beforeAll(async () => {
  if (version !== undefined) api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api?.close();
});

pythonTest(
  version === undefined ? `${title} (skipped: ${PYTHON} cannot import sentry_sdk; install Debian's python3-sentry-sdk)` : `${title} (sentry-sdk ${version})`,
  async () => {
    const factoryId = newFactoryId('sentrypy');
    const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers: true });
    await promisify(execFile)(PYTHON, [join(__dirname, 'python-app.py')], {
      env: { ...process.env, SENTRY_DSN: dsnFor(api.baseUrl, key, keyId) },
      timeout: 60_000,
    });
    const issues = await issuesOf(factoryId);
    expect(issues.map((issue) => [issue.title.replace(/\d+/g, 'N'), issue.count]).sort()).toEqual([
      ["KeyError: 'user-N'", 2],
      ['ValueError: order N is malformed', 3],
    ]);
    const events = await storedReports(factoryId);
    const order = events.find((event) => event.exception?.type === 'ValueError')!;
    expect(order.sdkFrames[0]).toMatchObject({ function: 'parse_order', inApp: true, contextLine: expect.stringContaining('raise ValueError') });
    expect(order.exception.stack).toContain('Caused by: ValueError: invalid literal');
    expect(order.reporter).toEqual({ email: 'grace@example.com', name: 'grace' });
    expect(order.origin).toBe('server');
  },
  90_000,
);
