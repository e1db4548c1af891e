/**
 * npm start: the contacts API and the ingest API on one port,
 * http://localhost:$PORT (paths under /ingest/v1/ go to the ingest API, as
 * on AWS), the same handlers as on Lambda behind a small HTTP adapter, on an
 * embedded DynamoDB Local whose data lives in .data/ (or on
 * DYNAMODB_ENDPOINT when set), watched: should DynamoDB Local exit, it is
 * said at once and started again on the same data (local/harness/dynamodb-watch.ts).
 * `npm start -- --bundle` serves the files `cdk synth` bundles for Lambda
 * instead of the TypeScript sources.
 */
import { cpSync } from 'node:fs';
import type { Server } from 'node:http';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiHandler } from '../../../lambda/infrastructure/http/pipeline';
import { API_PREFIXES } from '../../../lambda/infrastructure/http/prefixes';
import { findApiAsset, findFunctionAsset, SOURCEMAPS_DESCRIPTION, TALLY_DESCRIPTION } from '../bundle/api-asset';
import { keptAssembly, type KeptAssembly } from '../bundle/assembly-cache';
import type { StreamHandler } from '../streams/consumers';
import { parseCommandLine, runCommand, UsageError } from '../cli';
import { serveStore, type ServedStore } from '../store';
import { hostHandler, sourceHandlers, type HostHandlers } from '../host';
import { LOCAL_S3_DIR, LOCAL_SOURCE_MAPS_BUCKET, s3Environment, startS3Local, type S3Local } from '../s3-local';
import { createHttpAdapter, invocationLimitsFromEnv, listen } from '../http-adapter';
import { DEFAULT_API_PORT, DEFAULT_DYNAMODB_PORT, LOCAL_DATA_DIR, PROJECT_ROOT } from '../paths';
import { isPortInUse, portFromEnv } from '../ports';
import { SetupError } from '../setup-error';
import { registerServer, unregisterServer } from '../server-registry';
import { liveStore, removeLock } from '../store-lock';
import { onStopRequest } from '../stop-signals';
import { startLocalAlerts, type LocalAlerts } from '../alerts/local-alerts';
import { createDocumentClient, dynamoConfigFromEnv } from '../../../lambda/infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../../../lambda/infrastructure/store/schema';
import { alertConsumer } from '../streams/consumers';
import { startReportStreams } from '../streams/report-streams';
import type { StreamPoller } from '../streams/stream-poller';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Where `npm start` listens unless HOST says otherwise. */
const LOOPBACK_HOST = '127.0.0.1';

const USAGE = `usage: npm start [-- --bundle]

Starts the contacts API, under /ingest/v1/ the ingest API and under
/sourcemaps/v1/ the source maps API on http://localhost:$PORT (default 3000)
on an embedded DynamoDB Local (data in .data/), or on DYNAMODB_ENDPOINT when
set, and an embedded S3-compatible store for source maps (data in .data/s3),
or S3_ENDPOINT (with SOURCE_MAPS_BUCKET) when set. Should DynamoDB Local exit, it
says so and starts it again on the same data; after 3 restarts within a
minute it stops instead, with the reason and exit code 1.

  --bundle   serve the Lambda assets that \`cdk synth\` builds (cdk.out/asset.…/index.mjs),
             the files \`cdk deploy\` uploads, instead of the TypeScript sources

Environment: PORT, HOST (the address to listen on; default 127.0.0.1, this machine
only: HOST=0.0.0.0 for every interface), DYNAMODB_PORT (default 8000), DYNAMODB_ENDPOINT, S3_ENDPOINT, LOG_LEVEL
(DEBUG, INFO, WARN, ERROR, SILENT; default INFO: one JSON line per request),
LOCAL_CONCURRENCY (handler calls at once, default 8).`;

/** The sources' cloud assembly: kept from an earlier synth of the very same sources, or synthesized now (local/harness/bundle/assembly-cache.ts). */
function keptAssemblyFor(): KeptAssembly {
  say('synthesizing the stack (cdk synth) for the bundled Lambda assets, unless these very sources were synthesized before …');
  const kept = keptAssembly();
  say(
    kept.reused
      ? `these sources were synthesized before: using that assembly (${relative(process.cwd(), kept.dir)}), copied to cdk.out`
      : 'synthesized, and kept for the next --bundle run of these sources',
  );
  return kept;
}

/** The handlers to serve: the Lambda entry points' sources, or the assets `cdk synth` bundles from them (the tally's too). */
async function loadHandlers(bundle: boolean): Promise<HostHandlers & { tally?: StreamHandler }> {
  if (!bundle) return sourceHandlers();
  const assembly = `${PROJECT_ROOT}/cdk.out`;
  const kept = keptAssemblyFor();
  // cdk.out holds what `cdk synth` would write there, as before the assembly was kept.
  cpSync(kept.dir, assembly, { recursive: true });
  const assets = {
    contacts: findApiAsset(assembly, 'contacts'),
    ingest: findApiAsset(assembly, 'ingest'),
    sourcemaps: findFunctionAsset(assembly, SOURCEMAPS_DESCRIPTION),
    tally: findFunctionAsset(assembly, TALLY_DESCRIPTION),
  };
  const load = async <T>(file: string) => ((await import(pathToFileURL(file).href)) as { handler: T }).handler;
  for (const asset of Object.values(assets)) say(`serving ${relative(process.cwd(), asset.file)} (${asset.bytes} bytes)`);
  return {
    contacts: await load<ApiHandler>(assets.contacts.file),
    ingest: await load<ApiHandler>(assets.ingest.file),
    sourcemaps: await load<ApiHandler>(assets.sourcemaps.file),
    tally: await load<StreamHandler>(assets.tally.file),
  };
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { bundle: { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  // Metrics are for CloudWatch; locally they would only bury the request log.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const port = portFromEnv('PORT', DEFAULT_API_PORT);
  // Loopback unless told otherwise: a development server with test keys is nothing to offer the network.
  const host = process.env.HOST?.trim() || LOOPBACK_HOST;
  const dynamoPort = portFromEnv('DYNAMODB_PORT', DEFAULT_DYNAMODB_PORT);
  const busy = () => new SetupError(`port ${port} is already in use: stop what listens there, or pick another port (PORT=${port + 1} npm start)`);
  if (await isPortInUse(port)) throw busy();
  const running = await liveStore(LOCAL_DATA_DIR, say);
  if (running) {
    throw new SetupError(`the local store is already served by ${running.command} (pid ${running.serverPid}, ${running.endpoint}): stop it first`);
  }

  let store: ServedStore | undefined;
  let maps: S3Local | undefined;
  let server: Server | undefined;
  let alerts: LocalAlerts | undefined;
  let streams: StreamPoller | undefined;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) {
      // A second signal while stopping: leave now (the exit hook kills DynamoDB Local).
      unregisterServer();
      removeLock(LOCAL_DATA_DIR);
      process.exit(1);
    }
    stopping = true;
    say('stopping …');
    server?.close();
    server?.closeAllConnections();
    alerts?.stop();
    unregisterServer();
    await streams?.stop();
    await store?.stop();
    await maps?.stop();
    removeLock(LOCAL_DATA_DIR);
    process.exit(code);
  };
  onStopRequest(stop);

  store = await serveStore({
    dataDir: LOCAL_DATA_DIR,
    port: dynamoPort,
    say,
    // Its database keeps dying: stop with the reason rather than answer 503 forever.
    onGiveUp: (reason) => {
      process.stderr.write(`error: ${reason}\n`);
      void stop(1);
    },
  });
  if (store.created.length > 0) say(`created tables and indexes: ${store.created.join(', ')}`);
  try {
    // From now on the operator commands find this store through the registry, whatever its data folder.
    registerServer({ dataDir: LOCAL_DATA_DIR, endpoint: store.endpoint, api: `http://localhost:${port}` });
    // The Lambda entry point itself, configured by the environment as on AWS.
    process.env.DYNAMODB_ENDPOINT = store.endpoint;
    // Source maps: the embedded S3-compatible store on .data/s3, or S3_ENDPOINT when set (docs/source-maps.md).
    if (process.env.S3_ENDPOINT) {
      process.env.SOURCE_MAPS_BUCKET ??= LOCAL_SOURCE_MAPS_BUCKET;
    } else {
      maps = await startS3Local({ directory: LOCAL_S3_DIR });
      Object.assign(process.env, s3Environment(maps));
    }
    // Registered again with the maps store: the operator commands (reports -- issue) read maps where this server does.
    registerServer({
      dataDir: LOCAL_DATA_DIR,
      endpoint: store.endpoint,
      api: `http://localhost:${port}`,
      maps: { S3_ENDPOINT: process.env.S3_ENDPOINT ?? '', SOURCE_MAPS_BUCKET: process.env.SOURCE_MAPS_BUCKET ?? '' },
    });
    const handlers = await loadHandlers(values.bundle === true);
    // Webhook deliveries (docs/alerts.md#under-npm-start): the deliverer's code on timers; pending ones resume.
    alerts = await startLocalAlerts(createDocumentClient(dynamoConfigFromEnv()), tableNamesFromEnv().alerts, { reportsTable: tableNamesFromEnv().reports });
    if (alerts.resumed > 0) say(`alerts: ${alerts.resumed} pending webhook deliveries queued again`);
    // The tally (events counted into their issues) and the alert notifier, from the reports table's stream, as on AWS.
    streams = await startReportStreams({
      endpoint: store.endpoint,
      dataDir: LOCAL_DATA_DIR,
      say,
      tally: handlers.tally,
      consumers: [alertConsumer(alerts.notifier)],
    });
    server = createHttpAdapter(hostHandler(handlers), { invocations: invocationLimitsFromEnv() });
    await listen(server, port, host).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? busy() : error;
    });
    say(
      `slow clients: the request headers must arrive within ${server.headersTimeout / 1000} s and the whole request within ${server.requestTimeout / 1000} s, or the answer is 408`,
    );
    say(`Contacts API listening on http://localhost:${port}`);
    say(
      host === LOOPBACK_HOST
        ? `listening on ${host} only (this machine): HOST=0.0.0.0 npm start to take requests from other machines too`
        : `listening on ${host}: reachable from other machines; anyone who can reach it can use the keys you issue`,
    );
    say(`Ingest API (browsers, publishable keys) on http://localhost:${port}${API_PREFIXES.ingest}`);
    say(
      `Source maps API (CI uploads, secret keys) on http://localhost:${port}${API_PREFIXES.sourcemaps}, maps kept at ${maps ? `${relative(process.cwd(), LOCAL_S3_DIR) || '.'} (${maps.endpoint})` : process.env.S3_ENDPOINT}`,
    );
    say('Issue a key with: npm run --silent keys -- create --factory fac_demo');
    say('  or, for a web page: npm run --silent keys -- create --factory fac_demo --type publishable --origin http://localhost:5173');
    say('The control room in a browser (second terminal): npm run control-room');
  } catch (error) {
    unregisterServer();
    await streams?.stop();
    await store.stop();
    await maps?.stop();
    throw error;
  }
});
