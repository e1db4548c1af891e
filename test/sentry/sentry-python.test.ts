import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { storedReports } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';
import { eventAsShown, issuesOf } from './sentry-issues';

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
const title =
  'the unmodified Python sentry-sdk reports through the printed DSN from two install paths: each exception is one issue with an exact count, its frames shown as sent with their lines';

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
    // The same app deployed twice, as release folders of a host (or two hosts), each run from its own folder.
    const root = mkdtempSync(join(tmpdir(), 'srv-'));
    try {
      for (const release of ['123', '124']) {
        const dir = join(root, 'releases', release);
        mkdirSync(dir, { recursive: true });
        copyFileSync(join(__dirname, 'python-app.py'), join(dir, 'app.py'));
        await promisify(execFile)(PYTHON, [join(dir, 'app.py')], {
          cwd: dir,
          env: { ...process.env, SENTRY_DSN: dsnFor(api.baseUrl, key, keyId), RELEASE: `orders@${release}` },
          timeout: 60_000,
        });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const issues = await issuesOf(factoryId);
    expect(issues.map((issue) => [issue.title.replace(/\d+/g, 'N'), issue.count]).sort()).toEqual([
      ["KeyError: 'user-N'", 4],
      ['ValueError: order N is malformed', 6],
    ]);
    const events = await storedReports(factoryId);
    const order = events.find((event) => event.exception?.type === 'ValueError')!;
    expect(order.sdkFrames[0]).toMatchObject({ function: 'parse_order', inApp: true, contextLine: expect.stringContaining('raise ValueError') });
    expect(new Set(events.map((event) => event.sdkFrames[0].file.replace(/^.*\/releases\//, '')))).toEqual(new Set(['123/app.py', '124/app.py']));
    // As the event page and `reports -- issue` show it: module, file, line and the lines around, no source-map reason.
    const asShown = await eventAsShown(factoryId, order.eventId);
    expect(issues.map((issue) => issue.issueId)).toContain(asShown.issueId);
    const shown = asShown.frames as Record<string, any>[];
    expect(shown[0]).toMatchObject({ function: 'parse_order', module: '__main__', line: expect.any(Number), app: true });
    const { firstLine, lines } = shown[0]?.context as { firstLine: number; lines: string[] };
    expect(lines[(shown[0]?.line as number) - firstLine]).toMatch(/^ {8}raise ValueError\("order %d is malformed" % n\) from cause$/);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(shown.some((frame) => frame.whyNotResolved !== undefined)).toBe(false);
    expect(order.exception.stack).toContain('Caused by: ValueError: invalid literal');
    expect(order.reporter).toEqual({ email: 'grace@example.com', name: 'grace' });
    expect(order.origin).toBe('server');
  },
  90_000,
);
