import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { CONTROL_CALLER } from '../support/control-memory';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * Release health from the unmodified server SDKs (docs/release-health.md#what-arrives), each run as a customer's
 * web app with the printed DSN of a --servers key: @sentry/node in request mode, and Debian's python3-sentry-sdk
 * (1.9.10: it too sends `sessions` aggregates per request from its WSGI middleware, to the envelope endpoint, while
 * its errors go to /store/). Crash-free rates exact against what the requests did.
 */
const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
let api: LocalApi;

beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api.close();
});

async function serverTenant(label: string) {
  const factoryId = newFactoryId(label);
  const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers: true });
  return { factoryId, dsn: dsnFor(api.baseUrl, key, keyId) };
}

async function releaseOf(factoryId: string, release: string) {
  await tallied();
  const answer = await handleControlRequest(control, { operation: 'releases.show', factoryId, release }, { principal: CONTROL_CALLER });
  expect(answer.status).toBe(200);
  return answer.body;
}

test('@sentry/node in request mode: each request one session, the one that captured an error errored, none crashed', async () => {
  const { factoryId, dsn } = await serverTenant('nodesess');
  await run(process.execPath, [join(__dirname, 'node-http-app.cjs')], { env: { ...process.env, SENTRY_DSN: dsn, RELEASE: 'api@7.0.0' }, timeout: 60_000 });
  expect(await releaseOf(factoryId, 'api@7.0.0')).toMatchObject({
    environment: 'production',
    sessions: 4,
    exited: 3,
    errored: 1,
    crashed: 0,
    crashFreeSessions: 1,
  });
}, 90_000);

function pythonVersion(): string | undefined {
  try {
    return execFileSync(PYTHON, ['-c', 'import sentry_sdk; print(sentry_sdk.VERSION)'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}
const version = pythonVersion();
const pythonTest = version === undefined ? test.skip : test;

pythonTest(
  `Python's sentry-sdk (${version ?? `not importable by ${PYTHON}`}) per request: 3 sessions, the one that raised crashed`,
  async () => {
    const { factoryId, dsn } = await serverTenant('pysess');
    await run(PYTHON, [join(__dirname, 'python-wsgi-app.py')], { env: { ...process.env, SENTRY_DSN: dsn, RELEASE: 'orders@9' }, timeout: 60_000 });
    const release = await releaseOf(factoryId, 'orders@9');
    expect(release).toMatchObject({ sessions: 3, exited: 2, crashed: 1 });
    expect(release.crashFreeSessions).toBeCloseTo(2 / 3, 10);
  },
  90_000,
);
