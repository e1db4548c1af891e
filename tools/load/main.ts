/**
 * npm run load: sustained, mixed traffic against the local server at a
 * steady rate. Starts DynamoDB Local (in memory; or uses DYNAMODB_ENDPOINT)
 * and `npm start` on free ports, issues its own key, seeds contacts, then
 * sends creates, updates (with and without companyDomain), reads by id and
 * by email, misses and bad input, paced open-loop for the whole duration.
 * Reports statuses and p50/p99 per kind and overall; exit code 1 on any
 * 5xx, network error, unexpected status, or a rate it could not hold.
 */
import { Agent, request as httpRequest } from 'node:http';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { burstPassed, burstReport, runBurst } from './burst';
import { Recorder, type Summary } from './latency';
import { paceAt } from './schedule';
import { startServer } from './server';
import { KINDS, Traffic, type LoadRequest } from './traffic';
import { freePort } from '../../local/harness/ports';
import { openScratchStore } from '../../local/harness/store';

const USAGE = `usage: npm run load [-- options]

Drives the local server (npm start, started here on a free port) with mixed
traffic at a steady rate and reports errors and p50/p99 latency per kind of
request and overall. Uses DYNAMODB_ENDPOINT when set, otherwise an in-memory
DynamoDB Local. Exit code 1 on any 5xx (or network error, unexpected status,
or a rate the generator could not hold).

  --duration S     seconds of load (default 60, env LOAD_DURATION)
  --rate R         requests per second (default 100, env LOAD_RATE)
  --connections C  keep-alive connections, at most (default 64)
  --seed-contacts N  contacts created before the timed run (default 200)
  --warmup S       seconds of the same traffic before the timed run, checked, not timed (default 15; 0: none)
  --bundle         serve the Lambda asset cdk synth builds (npm start -- --bundle)
  --burst N        instead of the steady rate: N reads at once (each on its own
                   connection), N upserts at once, then N reads and N upserts
                   pipelined on one connection each; checks that every upsert
                   is in the store. Exit code 1 on any 5xx or lost write`;

/** A slower dispatch than this means the generator, not the server, set the pace. */
const MAX_DISPATCH_LAG_MS = 1000;

interface Answer {
  status: number;
  body: string;
}

function sender(baseUrl: string, key: string, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const send = (req: LoadRequest): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { Authorization: `Bearer ${key}` };
      if (req.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = Buffer.byteLength(req.body);
      }
      const call = httpRequest(new URL(req.path, baseUrl), { method: req.method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      call.setTimeout(30_000, () => call.destroy(new Error('no answer within 30 s')));
      call.on('error', reject);
      call.end(req.body);
    });
  return { send, close: () => agent.destroy() };
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');

function table(recorder: Recorder): string {
  const row = (kind: string, s: Summary) =>
    `${kind.padEnd(18)}${String(s.count).padStart(7)}${ms(s.p50).padStart(9)}${ms(s.p99).padStart(9)}${ms(s.max).padStart(9)}  ${String(s.unexpected).padStart(10)}  ${statusList(s.statuses)}`;
  const lines = [
    `${'kind'.padEnd(18)}${'count'.padStart(7)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}  ${'unexpected'.padStart(10)}  statuses`,
  ];
  for (const kind of KINDS) lines.push(row(kind, recorder.summary(kind)));
  lines.push(row('overall', recorder.summary('overall')));
  return lines.join('\n');
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    duration: { type: 'string' },
    rate: { type: 'string' },
    connections: { type: 'string' },
    'seed-contacts': { type: 'string' },
    warmup: { type: 'string' },
    bundle: { type: 'boolean' },
    burst: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const duration = positiveIntArg('--duration', values.duration ?? process.env.LOAD_DURATION, 86_400) ?? 60;
  const rate = positiveIntArg('--rate', values.rate ?? process.env.LOAD_RATE, 100_000) ?? 100;
  const connections = positiveIntArg('--connections', values.connections, 10_000) ?? 64;
  const seedContacts = positiveIntArg('--seed-contacts', values['seed-contacts'], 1_000_000) ?? 200;
  const warmup = values.warmup === '0' ? 0 : (positiveIntArg('--warmup', values.warmup, 3600) ?? 15);
  const burst = positiveIntArg('--burst', values.burst, 20_000);
  const say = (line: string) => process.stderr.write(`${line}\n`);

  const store = await openScratchStore({ say, exitOnSignal: true });
  const server = await startServer({
    endpoint: store.endpoint,
    port: await freePort(),
    bundle: values.bundle === true,
    logLevel: process.env.LOG_LEVEL ?? 'INFO',
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  say(`npm start (pid ${server.pid}) listening on ${server.baseUrl}`);
  // Every request counts against the key's per-minute limit: give it room for the whole run.
  const { key, keyId, factoryId } = await new KeyAdmin(store.doc, store.tables.keys).create({
    factoryId: `fac_load_${Date.now().toString(36)}`,
    type: 'secret',
    rateLimit: burst === undefined ? rate * 60 * 3 + seedContacts + 10_000 : 1_000_000,
  });
  if (burst !== undefined) {
    let passed = false;
    try {
      say(`burst of ${burst} against a cold npm start (key ${keyId}) …`);
      const result = await runBurst({ baseUrl: server.baseUrl, key, factoryId, doc: store.doc, contactsTable: store.tables.contacts, onProgress: say }, burst);
      const log = server.log();
      passed = burstPassed(result) && log.errors.length === 0;
      process.stdout.write(
        `${[
          `burst: npm start${values.bundle ? ' --bundle' : ''} on ${store.embedded ? 'DynamoDB Local (in memory)' : store.endpoint}; latency from each phase's start`,
          burstReport(result),
          `server log: ${log.requests} request lines, ${log.errors.length} at ERROR`,
          ...log.errors.slice(0, 3).map((line) => `  server ERROR: ${line.slice(0, 300)}`),
        ].join('\n')}\n`,
      );
      say(passed ? 'ok: no 5xx, every write applied' : 'FAILED');
    } finally {
      await server.stop();
      await store.close();
    }
    if (!passed) process.exit(1);
    return;
  }
  const client = sender(server.baseUrl, key, connections);
  const traffic = new Traffic();
  let failed = false;
  try {
    // Seed: contacts that updates and reads can use from the first second on.
    say(`seeding ${seedContacts} contacts for ${factoryId} (key ${keyId}) …`);
    for (let i = 0; i < seedContacts; i += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, seedContacts - i) }, async (_, j) => {
          const answer = await client.send(traffic.create(j % 2 === 0));
          if (answer.status !== 201) throw new Error(`seeding answered ${answer.status}: ${answer.body}`);
          const { contact } = JSON.parse(answer.body) as { contact: { email: string; id: string } };
          traffic.remember(contact.email, contact.id);
        }),
      );
    }

    // One steady-rate phase: every request due at its time, answers recorded as they come.
    let networkErrors = 0;
    const firstErrors: string[] = [];
    const drive = async (seconds: number, recorder: Recorder) => {
      const inFlight = new Set<Promise<void>>();
      const started = performance.now();
      const pacing = await paceAt(rate, seconds * 1000, (_, dueAt) => {
        const req = traffic.nextRequest();
        const second = Math.floor((dueAt - started) / 1000);
        const done = client.send(req).then(
          (answer) => {
            const expected = req.expect.includes(answer.status);
            recorder.record(req.kind, performance.now() - dueAt, String(answer.status), expected, second);
            if (!expected && firstErrors.length < 5) firstErrors.push(`${req.kind} ${req.method} ${req.path}: ${answer.status} ${answer.body.slice(0, 200)}`);
            if (req.creates && answer.status === 201) {
              const { contact } = JSON.parse(answer.body) as { contact: { email: string; id: string } };
              traffic.remember(contact.email, contact.id);
            }
          },
          (error: unknown) => {
            networkErrors += 1;
            recorder.record(req.kind, performance.now() - dueAt, 'network error', false, second);
            if (firstErrors.length < 5) firstErrors.push(`${req.kind} ${req.method} ${req.path}: ${error instanceof Error ? error.message : String(error)}`);
          },
        );
        inFlight.add(done);
        void done.finally(() => inFlight.delete(done));
      });
      await Promise.all(inFlight);
      return { pacing, elapsed: (performance.now() - started) / 1000 };
    };

    // Warm-up at the same rate (JIT of the server and of DynamoDB Local), checked but not timed.
    const warm = new Recorder();
    if (warmup > 0) {
      say(`warm-up: ${warmup} s at ${rate} req/s …`);
      await drive(warmup, warm);
    }
    say(`load: ${duration} s at ${rate} req/s (${rate * duration} requests), up to ${connections} connections …`);
    const recorder = new Recorder();
    const { pacing, elapsed } = await drive(duration, recorder);

    const overall = recorder.summary('overall');
    const window = Math.max(1, Math.round(duration / 12));
    const fives = (summary: Summary) =>
      Object.entries(summary.statuses)
        .filter(([status]) => status.startsWith('5'))
        .reduce((sum, [, count]) => sum + count, 0);
    const warmed = warm.summary('overall');
    const serverErrors = fives(overall) + fives(warmed);
    const log = server.log();
    process.stdout.write(
      `${[
        `load: ${duration} s at ${rate} req/s: ${pacing.dispatched} requests sent, ${overall.count} answered, ${(pacing.dispatched / duration).toFixed(1)} req/s dispatched (all answered after ${elapsed.toFixed(1)} s)`,
        `server: npm start${values.bundle ? ' --bundle' : ''} on ${store.embedded ? 'DynamoDB Local (in memory)' : store.endpoint}; latency from each request's due time to its answer`,
        table(recorder),
        `timeline (${window} s windows, p50/p99 ms): ${recorder
          .timeline(window)
          .map((w) => `${w.from}s ${ms(w.p50)}/${ms(w.p99)}`)
          .join('  ')}`,
        `5xx: ${serverErrors}   network errors: ${networkErrors}   unexpected statuses: ${overall.unexpected + warmed.unexpected}   dispatch lag p99 ${pacing.lagP99Ms.toFixed(1)} ms, max ${pacing.lagMaxMs.toFixed(1)} ms`,
        `warm-up (${warmup} s, not in the table): ${warmed.count} requests, p50 ${ms(warmed.p50)} ms, p99 ${ms(warmed.p99)} ms, ${fives(warmed)} 5xx, ${warmed.unexpected} unexpected`,
        `server log: ${log.requests} request lines (seeding and warm-up included), ${log.errors.length} at ERROR`,
        ...firstErrors.map((line) => `  first problems: ${line}`),
        ...log.errors.slice(0, 3).map((line) => `  server ERROR: ${line.slice(0, 300)}`),
      ].join('\n')}\n`,
    );
    const holdFailed = pacing.lagMaxMs > MAX_DISPATCH_LAG_MS;
    if (holdFailed) say(`the generator fell ${pacing.lagMaxMs.toFixed(0)} ms behind its schedule: the rate was not held (machine too busy?)`);
    failed = serverErrors > 0 || networkErrors > 0 || overall.unexpected + warmed.unexpected > 0 || log.errors.length > 0 || holdFailed;
    say(failed ? 'FAILED' : 'ok: no 5xx, every answer as expected');
  } finally {
    client.close();
    await server.stop();
    await store.close();
  }
  if (failed) process.exit(1);
});
