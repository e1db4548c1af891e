/**
 * npm run bench:cpu: the server CPU one stored event costs (docs/performance.md#cpu-per-event).
 * `npm start -- --bundle` (the Lambda assets themselves, the tally's
 * included) on a DynamoDB Local of the bench's own, sent lone errors (one
 * event a request: a typical 5-frame error with its tags and a browser's
 * user agent) through the own protocol and as Sentry envelopes (Sentry's
 * browser SDK's own event and transport), each request from a visitor
 * address of its own; the server's CPU time (its process tree, user and
 * system) is read from /proc before and after each batch, and the batch
 * ends only once the tally has counted every event it stored. DynamoDB
 * Local's CPU (another process) is not counted. The design of --baseline
 * (a git worktree) runs beside it, batches alternating, so both meet the
 * same machine. Writes bench/cpu-results.md.
 */
import './env';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal, type DynamoDbLocal } from '../../local/harness/dynamodb-local';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import { envelopeUrlOf, eventEnvelope, sentryPage } from '../storm/sentry-page';
import { TYPICAL_SITE, TYPICAL_USER_AGENT, typicalOwnEvent, typicalSentryEvent } from '../storm/typical-error';
import { mapAssetFrames, monotonicUs, withinWindows, type TimedProfile } from './asset-profile';
import { describeMachine, finishMachine } from './machine';
import { functionNode, NODE_USAGE, type FunctionNode } from './function-node';
import { summarizeProfiles, type CostLine } from './profile';
import { commitOf, postFrom, startChild, stopChild, treeCpuMs, visitorAddress, worktreeOf } from './served';
import { median } from './stats';

const USAGE = `usage: npm run bench:cpu [-- options]

The server CPU per stored event: npm start -- --bundle (the Lambda assets, the
tally's included) sent lone errors through the own protocol and as Sentry
envelopes, its process tree's CPU read from /proc around each batch (until the
tally has counted every stored event), beside the design of --baseline.

  --requests N     lone-error requests per batch (default 1000)
  --rounds N       batches per design and protocol, alternating (default 2)
  --warmup N       requests per design and protocol before the first batch (default 300)
  --concurrency N  requests at once (default 8: npm start's handler calls at once)
  --protocol P     own, sentry or both (default both)
  --baseline REF   the commit to compare with (default ${'c1effd8'}, the release before issue 50), or none
  --sources        serve the TypeScript sources (npm start) instead of the bundled assets
${NODE_USAGE}
  --profile DIR    profile this design's server (node --cpu-prof, files in DIR) and add where its CPU
                   went during the measured batches to the report, charged to the sources
  --out FILE       where to write the report (default bench/cpu-results.md)`;

const SITE = TYPICAL_SITE;
/** The release before issue 50: main when its work began. */
const DEFAULT_BASELINE = 'c1effd8';
/** How long a batch may wait for the tally after its last answer. */
const COUNT_TIMEOUT_MS = 120_000;

type Protocol = 'own' | 'sentry';
const THIS_DESIGN = 'this design';

interface Server {
  design: string;
  root: string;
  child: ChildProcess;
  baseUrl: string;
  key: string;
  keyId: string;
  factoryId: string;
  raw: ReturnType<typeof documentClientOf>;
  dynamo: DynamoDbLocal;
  /** Visitors used so far: each request comes from an address of its own. */
  visitors: number;
  acknowledged: number;
}

interface Batch {
  design: string;
  /** The monotonic clock (µs) at its start and end, for the profile's samples. */
  window: [number, number];
  protocol: Protocol;
  requests: number;
  acknowledged: number;
  cpuMs: number;
  wallMs: number;
  failed: Record<string, number>;
}

/** Sum of the factory's issue counts, read straight from DynamoDB Local (the server does no work for it): its open issues' list. */
async function counted(server: Server): Promise<number> {
  const issues = await new DynamoIssueStore(server.raw, LOCAL_TABLE_NAMES.reports).listIssues(server.factoryId, {
    status: 'open',
    limit: 10,
    nowMs: Date.now(),
  });
  return issues.reduce((sum, issue) => sum + issue.count, 0);
}

async function startServer(design: string, root: string, bundle: boolean, profileDir: string | undefined, node: FunctionNode): Promise<Server> {
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const children: ChildProcess[] = [];
  try {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'cpu-data-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The deployed default: one log line per request, as on Lambda.
      LOG_LEVEL: 'INFO',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      PORT: String(port),
      CONTACTS_DATA_DIR: dataDir,
      CONTACTS_SERVERS_DIR: mkdtempSync(join(tmpdir(), 'cpu-servers-')),
      CONTACTS_STREAMS: 'on',
    };
    delete env.S3_ENDPOINT;
    // npm start runs the assets in its own process: its node is the functions' node.
    const profiling = profileDir ? [`--cpu-prof`, `--cpu-prof-dir=${profileDir}`] : [];
    const started = startChild(node.path, [...profiling, '--import', 'tsx', 'local/harness/commands/start.ts', ...(bundle ? ['--bundle'] : [])], {
      cwd: root,
      env,
      ready: /Contacts API listening on (http:\/\/localhost:\d+)/,
      timeoutMs: 300_000,
    });
    children.push(started.child);
    const baseUrl = ((await started.ready)[1] as string).replace('localhost', '127.0.0.1');
    // Patient: on a loaded machine DynamoDB Local may take seconds to answer the bench's own reads.
    const raw = documentClientOf(createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, requestTimeoutMs: 30_000, endpoint: dynamo.endpoint }));
    const factoryId = `fac_cpu_${randomUUID().slice(0, 8)}`;
    const { key, keyId } = await new KeyAdmin(raw, LOCAL_TABLE_NAMES.keys).create({ factoryId, type: 'publishable', origins: [SITE], rateLimit: 1_000_000 });
    return {
      design,
      root,
      child: started.child,
      baseUrl,
      key,
      keyId,
      factoryId,
      raw,
      dynamo,
      visitors: 0,
      acknowledged: 0,
    };
  } catch (error) {
    for (const child of children) await stopChild(child);
    await dynamo.stop();
    throw error;
  }
}

async function stopServer(server: Server): Promise<void> {
  await stopChild(server.child);
  await server.dynamo.stop();
}

/** One request of `protocol` from the next visitor; its status (undefined: no answer). */
async function send(server: Server, protocol: Protocol): Promise<number | undefined> {
  const from = visitorAddress(server.visitors);
  server.visitors += 1;
  const headers = { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': TYPICAL_USER_AGENT };
  if (protocol === 'own') {
    const body = JSON.stringify({ events: [typicalOwnEvent()] });
    return (await postFrom(`${server.baseUrl}/ingest/v1/events`, { ...headers, Authorization: `Bearer ${server.key}` }, body, from, 30_000)).status;
  }
  let status: number | undefined;
  // Sentry's own transport over a fetch of the bench's (the visitor's address, the page's Origin and user agent).
  const transport = sentryPage(envelopeUrlOf(dsnFor(server.baseUrl, server.key, server.keyId)), (async (url: string, init: { body: string }) => {
    const answer = await postFrom(url, headers, init.body, from, 30_000);
    status = answer.status;
    if (answer.status === undefined) throw new TypeError('Failed to fetch');
    return { status: answer.status, headers: { get: () => null } };
  }) as unknown as Parameters<typeof sentryPage>[1]);
  await transport.send(eventEnvelope(typicalSentryEvent(), new Date().toISOString()));
  return status;
}

/** `requests` requests, `concurrency` at a time; then waits until the tally has counted every event acknowledged so far. */
async function runBatch(server: Server, protocol: Protocol, requests: number, concurrency: number): Promise<Omit<Batch, 'cpuMs' | 'wallMs' | 'window'>> {
  let next = 0;
  let acknowledged = 0;
  const failed: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        const status = await send(server, protocol);
        if (status !== undefined && status >= 200 && status < 300) acknowledged += 1;
        else failed[String(status ?? 'no answer')] = (failed[String(status ?? 'no answer')] ?? 0) + 1;
      }
    }),
  );
  server.acknowledged += acknowledged;
  const deadline = performance.now() + COUNT_TIMEOUT_MS;
  for (;;) {
    const total = await counted(server);
    if (total >= server.acknowledged) break;
    if (performance.now() > deadline)
      throw new Error(`${server.design}: the tally counted ${total} of ${server.acknowledged} events in ${COUNT_TIMEOUT_MS / 1000} s`);
    await new Promise((done) => setTimeout(done, 250));
  }
  return { design: server.design, protocol, requests, acknowledged, failed };
}

/** A measured batch: the server tree's CPU around it. */
async function measuredBatch(server: Server, protocol: Protocol, requests: number, concurrency: number): Promise<Batch> {
  const pid = server.child.pid as number;
  const cpuBefore = treeCpuMs(pid);
  const started = performance.now();
  const startUs = monotonicUs();
  const batch = await runBatch(server, protocol, requests, concurrency);
  return { ...batch, cpuMs: treeCpuMs(pid) - cpuBefore, wallMs: performance.now() - started, window: [startUs, monotonicUs()] };
}

/** The server's CPU while idle (the stream poller's reads, timers), per second. */
async function idleCpuPerSecond(server: Server, seconds: number): Promise<number> {
  const pid = server.child.pid as number;
  const before = treeCpuMs(pid);
  await new Promise((done) => setTimeout(done, seconds * 1000));
  return (treeCpuMs(pid) - before) / seconds;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

/** Where this design's server spent the measured batches, from its profile (the main thread's: the largest file). */
async function profileLines(profileDir: string, batches: readonly Batch[]): Promise<string[]> {
  const files = readdirSync(profileDir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(profileDir, name))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  const main = files[0];
  if (!main) return ['(no profile was written)'];
  const whole = JSON.parse(readFileSync(main, 'utf8')) as TimedProfile;
  const windows = batches.filter((batch) => batch.design === THIS_DESIGN).map((batch) => batch.window);
  const profile = await mapAssetFrames(withinWindows(whole, windows));
  const summary = summarizeProfiles([profile], 25);
  const events = batches.filter((batch) => batch.design === THIS_DESIGN).reduce((sum, batch) => sum + batch.acknowledged, 0);
  const table = (title: string, lines: CostLine[]) => [
    `| ${title} | ms | µs per event | share |`,
    '|---|---:|---:|---:|',
    ...lines.map(
      (line) =>
        `| ${line.name.replace(/\|/g, '\\|')} | ${Math.round(line.ms)} | ${Math.round((1000 * line.ms) / Math.max(1, events))} | ${(100 * line.share).toFixed(1)} % |`,
    ),
    '',
  ];
  return [
    `## Where this design's CPU went`,
    '',
    `V8's sampling profiler on the server's main thread (\`node --cpu-prof\`), only the samples of the measured batches (${events.toLocaleString('en-US')} events): ${Math.round(summary.busyMs)} ms busy. Frames in the bundled assets are charged to their source files through a source map of a byte-identical rebuild (tools/bench/asset-profile.ts); each sample to the nearest package or project folder on its stack. Under load the profiler's time includes waits for a core (a preempted system call shows as its own), so read shares, not absolute times, and the CPU table above for the cost.`,
    '',
    ...table('by family', summary.byOwnerFamily),
    ...table('by package or folder', summary.byOwner),
    ...table('by function (self time)', summary.topFunctions),
    ...(await protocolLines(whole, batches)),
  ];
}

/**
 * The two protocols side by side (when both ran): each one's samples (its own batches' windows) charged as above,
 * per stored event, and what an own-protocol event costs more (or less) than an envelope's, part by part, largest
 * difference first. Where one protocol's event goes dearer outside the function, this names the part.
 */
async function protocolLines(whole: TimedProfile, batches: readonly Batch[]): Promise<string[]> {
  const mine = batches.filter((batch) => batch.design === THIS_DESIGN);
  const perProtocol = new Map<Protocol, { events: number; owners: CostLine[]; functions: CostLine[] }>();
  for (const protocol of ['own', 'sentry'] as const) {
    const of = mine.filter((batch) => batch.protocol === protocol);
    if (of.length === 0) return [];
    const summary = summarizeProfiles(
      [
        await mapAssetFrames(
          withinWindows(
            whole,
            of.map((batch) => batch.window),
          ),
        ),
      ],
      10_000,
    );
    perProtocol.set(protocol, { events: of.reduce((sum, batch) => sum + batch.acknowledged, 0), owners: summary.byOwner, functions: summary.topFunctions });
  }
  const own = perProtocol.get('own') as { events: number; owners: CostLine[]; functions: CostLine[] };
  const sentry = perProtocol.get('sentry') as typeof own;
  const compare = (title: string, pick: 'owners' | 'functions', top: number) => {
    const perEvent = (lines: CostLine[], events: number) => new Map(lines.map((line) => [line.name, (1000 * line.ms) / Math.max(1, events)]));
    const a = perEvent(own[pick], own.events);
    const b = perEvent(sentry[pick], sentry.events);
    const rows = [...new Set([...a.keys(), ...b.keys()])]
      .map((name) => ({ name, own: a.get(name) ?? 0, sentry: b.get(name) ?? 0 }))
      .sort((x, y) => Math.abs(y.own - y.sentry) - Math.abs(x.own - x.sentry))
      .slice(0, top);
    return [
      `| ${title} | own µs per event | Sentry µs per event | own − Sentry |`,
      '|---|---:|---:|---:|',
      ...rows.map((row) => `| ${row.name.replace(/\|/g, '\\|')} | ${Math.round(row.own)} | ${Math.round(row.sentry)} | ${Math.round(row.own - row.sentry)} |`),
      '',
    ];
  };
  const total = (lines: CostLine[], events: number) => (1000 * lines.reduce((sum, line) => sum + line.ms, 0)) / Math.max(1, events);
  return [
    '## Own protocol against Sentry envelopes, part by part',
    '',
    `The same profile, each protocol's measured batches apart (${own.events.toLocaleString('en-US')} own events, ${sentry.events.toLocaleString('en-US')} Sentry): ${Math.round(total(own.owners, own.events))} against ${Math.round(total(sentry.owners, sentry.events))} busy µs per event. The largest differences first.`,
    '',
    ...compare('by package or folder', 'owners', 15),
    ...compare('by function (self time)', 'functions', 25),
  ];
}

function report(options: {
  command: string;
  machine: ReturnType<typeof finishMachine>;
  batches: Batch[];
  idle: Record<string, number>;
  sources: boolean;
  profile: string[];
  /** The servers' node. */
  serverNode: string;
}): string {
  const designs = [...new Set(options.batches.map((batch) => batch.design))];
  const protocols = [...new Set(options.batches.map((batch) => batch.protocol))];
  const rows: string[] = [];
  for (const protocol of protocols) {
    for (const design of designs) {
      const batches = options.batches.filter((batch) => batch.design === design && batch.protocol === protocol);
      if (batches.length === 0) continue;
      const perEvent = batches.map((batch) => batch.cpuMs / Math.max(1, batch.acknowledged));
      const events = batches.reduce((sum, batch) => sum + batch.acknowledged, 0);
      const cpu = batches.reduce((sum, batch) => sum + batch.cpuMs, 0);
      const failed = batches.flatMap((batch) => Object.entries(batch.failed).map(([status, n]) => `${n} × ${status}`));
      rows.push(
        `| ${protocol === 'own' ? 'own protocol' : 'Sentry envelope'} | ${design} | ${events.toLocaleString('en-US')} | ${failed.join(', ') || '0'} | ${fixed(cpu / events, 2)} (${perEvent.map((ms) => fixed(ms, 2)).join(', ')}) | **${Math.round((1000 * events) / cpu)}** | ${Math.round(median(batches.map((batch) => (1000 * batch.acknowledged) / batch.wallMs)))} |`,
      );
    }
  }
  const sentryVsOwn = designs
    .map((design) => {
      const mean = (protocol: Protocol) => {
        const batches = options.batches.filter((batch) => batch.design === design && batch.protocol === protocol);
        return (
          batches.reduce((sum, batch) => sum + batch.cpuMs, 0) /
          Math.max(
            1,
            batches.reduce((sum, batch) => sum + batch.acknowledged, 0),
          )
        );
      };
      return protocols.length === 2 ? `${design}: ${fixed(mean('sentry') / mean('own'), 2)} ×` : '';
    })
    .filter(Boolean);
  const { machine } = options;
  return [
    '# CPU per event',
    '',
    'Written by `npm run bench:cpu` (tools/bench/ingest-cpu.ts); see docs/performance.md#cpu-per-event.',
    '',
    `Measured ${machine.date} on ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}, DynamoDB Local ${machine.dynamodb}; 1-minute load average ${machine.loadAtStart.toFixed(1)} at the start, ${machine.loadAtEnd?.toFixed(1)} at the end. Command: \`${options.command}\`. Served: ${options.sources ? 'the TypeScript sources (npm start)' : 'the bundled Lambda assets (npm start -- --bundle)'}, LOG_LEVEL=INFO, both servers on Node ${options.serverNode}.`,
    '',
    "Server CPU: npm start's process tree (the HTTP adapter, the ingest function, the stream poller and the tally, the alert notifier), user + system, from /proc; DynamoDB Local's is not counted. A batch ends when the tally has counted all its events.",
    '',
    ...(options.profile.length > 0
      ? [
          "Profiled: this design's server ran under V8's sampling profiler, whose own CPU (about 75 ms a second even idle) is in its figures and not in the other design's: compare designs from a run without --profile.",
          '',
        ]
      : []),
    '| protocol | design | events stored | not acknowledged | server CPU ms per event (per batch) | events per CPU-second | events per wall-second |',
    '|---|---|---:|---:|---|---:|---:|',
    ...rows,
    '',
    `Idle server CPU (no request; the stream poller and timers), ms per second: ${Object.entries(options.idle)
      .map(([design, ms]) => `${design} ${fixed(ms, 1)}`)
      .join(', ')}.${sentryVsOwn.length > 0 ? ` Sentry envelope ÷ own request, CPU per event: ${sentryVsOwn.join(', ')}.` : ''}`,
    '',
    ...options.profile,
  ].join('\n');
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    requests: { type: 'string' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    concurrency: { type: 'string' },
    protocol: { type: 'string' },
    baseline: { type: 'string' },
    sources: { type: 'boolean' },
    profile: { type: 'string' },
    out: { type: 'string' },
    node: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const requests = positiveIntArg('--requests', values.requests, 100_000) ?? 1000;
  const rounds = positiveIntArg('--rounds', values.rounds, 100) ?? 2;
  const warmup = positiveIntArg('--warmup', values.warmup, 100_000) ?? 300;
  const concurrency = positiveIntArg('--concurrency', values.concurrency, 256) ?? 8;
  const protocolValue = values.protocol ?? 'both';
  if (!['own', 'sentry', 'both'].includes(protocolValue)) throw new UsageError(`--protocol must be own, sentry or both, got "${protocolValue}"`);
  const protocols: Protocol[] = protocolValue === 'both' ? ['own', 'sentry'] : [protocolValue as Protocol];
  const baseline = values.baseline ?? DEFAULT_BASELINE;
  const bundle = values.sources !== true;
  const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const out = resolve(PROJECT_ROOT, values.out ?? 'bench/cpu-results.md');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const node = await functionNode(values.node, say);

  const machine = describeMachine(dynamoDbLocalVersion());
  const tree = baseline === 'none' ? undefined : worktreeOf(baseline);
  const servers: Server[] = [];
  const batches: Batch[] = [];
  const idle: Record<string, number> = {};
  try {
    say(
      `starting this design's server${tree ? ` and ${baseline}'s` : ''} (${bundle ? 'npm start -- --bundle: a cdk synth each, unless kept' : 'npm start'}) …`,
    );
    servers.push(await startServer(THIS_DESIGN, PROJECT_ROOT, bundle, profileDir, node));
    if (tree) servers.push(await startServer(`before (${commitOf(baseline)})`, tree.root, bundle, undefined, node));
    for (const server of servers) {
      for (const protocol of protocols) {
        say(`[${server.design}] warm-up: ${warmup} ${protocol} requests …`);
        await runBatch(server, protocol, warmup, concurrency);
      }
      idle[server.design] = await idleCpuPerSecond(server, 5);
    }
    for (let round = 0; round < rounds; round += 1) {
      // Alternating which protocol goes first, and which design, so that a drift of the machine's load, and the
      // dearer first batch after the warm-up, meet both alike (until 6 December the own protocol always went first).
      for (const protocol of round % 2 === 0 ? protocols : [...protocols].reverse()) {
        const order = round % 2 === 0 ? servers : [...servers].reverse();
        for (const server of order) {
          const batch = await measuredBatch(server, protocol, requests, concurrency);
          batches.push(batch);
          say(
            `[${server.design}] round ${round + 1}, ${protocol}: ${batch.acknowledged} events, ${(batch.cpuMs / Math.max(1, batch.acknowledged)).toFixed(2)} ms CPU each (${Math.round((1000 * batch.acknowledged) / batch.cpuMs)} per CPU-second)`,
          );
        }
      }
    }
  } finally {
    for (const server of servers) await stopServer(server);
    tree?.remove();
  }
  const command = ['npm run bench:cpu', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ');
  const profile = profileDir ? await profileLines(profileDir, batches) : [];
  const text = report({
    command,
    machine: finishMachine(machine),
    batches,
    idle,
    sources: !bundle,
    profile,
    serverNode: node.version,
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`${text}\n`);
  say(`written to ${relative(process.cwd(), out) || out}`);
});
