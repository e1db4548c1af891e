import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScratchStore, type ScratchStore } from '../../local/harness/store';
import { s3Environment, startS3Local, type S3Local } from '../../local/harness/s3-local';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { markRun } from './leftover-processes';
import { startRunTally, type RunTally } from './run-tally';
import { settingsFromEnv } from '../../tools/semantics/config';
import { startSemanticsProxy, type SemanticsProxy } from '../../tools/semantics/proxy';
import { SDK_BUILD_VARIABLE } from './sdk-build';

declare global {
  var __scratchStore: ScratchStore | undefined;
  var __semanticsProxy: SemanticsProxy | undefined;
  var __serversDir: string | undefined;
  var __runTally: RunTally | undefined;
  var __s3Local: { store: S3Local; dir: string } | undefined;
  var __sdkBuildDir: string | undefined;
}

/**
 * Starts one in-memory DynamoDB Local for the run, on a free port (so tests
 * run beside `npm start`), creates the tables, and hands the endpoint to the
 * test workers through the environment.
 */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const started = Date.now();
  // Before anything starts: every process of the run inherits the mark (see leftover-processes.ts).
  markRun();
  // The npm start servers of the tests register here, apart from a developer's (and from other runs').
  globalThis.__serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
  process.env.CONTACTS_SERVERS_DIR = globalThis.__serversDir;
  // The run's one browser SDK build goes here, made by the first file that needs it (test/support/sdk-build.ts).
  globalThis.__sdkBuildDir = mkdtempSync(join(tmpdir(), 'contacts-sdk-build-'));
  process.env[SDK_BUILD_VARIABLE] = globalThis.__sdkBuildDir;
  // Always a fresh store of our own, whatever the shell has set.
  delete process.env.DYNAMODB_ENDPOINT;
  process.env.CONTACTS_TABLE_NAME = LOCAL_TABLE_NAMES.contacts;
  process.env.KEYS_TABLE_NAME = LOCAL_TABLE_NAMES.keys;
  process.env.REPORTS_TABLE_NAME = LOCAL_TABLE_NAMES.reports;
  process.env.ALERTS_TABLE_NAME = LOCAL_TABLE_NAMES.alerts;
  // The embedded S3-compatible store (source maps) beside it, on a free port and a folder of its own.
  delete process.env.S3_ENDPOINT;
  const s3Dir = mkdtempSync(join(tmpdir(), 'contacts-s3-'));
  const [store, s3] = await Promise.all([openScratchStore({ fastStart: true }), startS3Local({ directory: s3Dir })]);
  globalThis.__s3Local = { store: s3, dir: s3Dir };
  Object.assign(process.env, s3Environment(s3));
  // The store behind its signature check, for the test that checks signatures made with other credentials itself.
  process.env.S3_STORE_ENDPOINT = s3.storeEndpoint;
  globalThis.__scratchStore = store;
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  process.stdout.write(`\nDynamoDB Local ready at ${store.endpoint} in ${Date.now() - started} ms\n`);
  // SEMANTICS=on: the whole run on DynamoDB as the service behaves (docs/development.md#dynamodb-as-the-service-behaves-the-semantics-proxy).
  if (/^on$/i.test(process.env.SEMANTICS ?? '')) {
    const proxy = await startSemanticsProxy({ target: store.endpoint, ...settingsFromEnv(process.env) });
    globalThis.__semanticsProxy = proxy;
    process.env.DYNAMODB_LOCAL_ENDPOINT = store.endpoint;
    process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
    process.stdout.write(`the run's DynamoDB is the semantics proxy at ${proxy.endpoint}: ${JSON.stringify(proxy.config())}\n`);
  }
  // One tally for the whole run, as on AWS one event source mapping serves every container (test/support/run-tally.ts).
  globalThis.__runTally = await startRunTally(process.env.DYNAMODB_ENDPOINT);
}
