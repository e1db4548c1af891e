import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashSecret } from '../../lambda/kernel/api-key';
import type { ContactStore, ContactWrite } from '../../lambda/contacts/domain/ports';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { bareOperation, type BareShape, type BareTarget } from './bare-client';
import { bundleEntry } from './bundle-entry';
import type { BenchRequest } from './container';
import { CallRecorder } from './counting';
import { DELAY_ENV } from './injected-delay';
import { EMPTY_SERVICE_ENV, type BareResult, type BareRun, type CpuSnapshot, type LoopMode, type ServiceCommand, type ServiceMessage } from './ipc';
import { sequenceOf } from './round-trips';
import { sequentialRounds } from './rounds';
import { median } from './stats';
import { benchFactoryId, type BenchStore } from './store';

export interface ThroughputOptions {
  connections: number;
  /**
   * Milliseconds added to every DynamoDB call of the service, the empty
   * service and the bare client alike: an in-region round trip, as in
   * production, where DynamoDB's work is not on the function's CPU.
   */
  delayMs: number;
  /** Seconds per run. Short runs, many of them, interleaved: load from other jobs hits all three alike. */
  durationS: number;
  /** Seconds of warm-up before the first run of each. */
  warmupS: number;
  /** Runs of service, empty service and bare client per workload, in a rotating order. */
  runs: number;
  /** The function's environment from the synthesized template (log level, service name …). */
  functionEnvironment: Record<string, string>;
  onProgress?: (line: string) => void;
}

export interface SideResult {
  /** Requests per second of each run. */
  rps: number[];
  p50ms: number;
  p99ms: number;
  /** CPU time of the serving process per request (this machine). */
  cpuMsPerRequest: number;
  /** Share of the whole machine's CPU time that was busy during the runs (every process, other jobs too): median. */
  machineBusy: number;
  problems: string[];
}

export interface ThroughputRow {
  shape: BareShape;
  label: string;
  service: SideResult & { stdoutBytesPerRequest: number; loadGeneratorCpuMsPerRequest: number };
  /** The bare client's calls behind the same local HTTP adapter, driven by the same autocannon (empty-service.ts). */
  empty: SideResult;
  bare: SideResult;
  /** service / empty service, per run (measured back to back): the target. */
  ratios: number[];
  /** empty service / bare, per run: what HTTP alone costs on this machine. */
  emptyRatios: number[];
  /** service / bare, per run. */
  bareRatios: number[];
  /** The calls of one request, as the recorder saw them. */
  bareSequence: string;
  /** Its sequential rounds: with an injected delay D, no request can take less than rounds × D. */
  bareRounds: number;
}

export interface ThroughputResult {
  rows: ThroughputRow[];
  options: Omit<ThroughputOptions, 'onProgress'>;
}

const SERVICE_ENTRY = join(__dirname, 'serve.ts');
const LOOP_ENTRY = join(__dirname, 'loop-worker.ts');

/**
 * What the stack gives the function, pointed at the benchmark's DynamoDB:
 * logs and metrics on, as on Lambda; plus the benchmark's injected delay.
 */
export function functionEnv(store: BenchStore, fromTemplate: Record<string, string>, delayMs: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ...fromTemplate,
    DYNAMODB_ENDPOINT: store.endpoint,
    CONTACTS_TABLE_NAME: store.tables.contacts,
    KEYS_TABLE_NAME: store.tables.keys,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    [DELAY_ENV]: String(delayMs),
  };
}

/** A forked helper process and the next message it sends. */
class Helper<TOut> {
  private readonly child: ChildProcess;
  private readonly waiting: ((message: TOut) => void)[] = [];
  private stderr = '';
  readonly exited: Promise<void>;

  /** `entry`: a TypeScript file (run with tsx) or a bundle from bundleEntry (run as is). */
  constructor(entry: string, env: NodeJS.ProcessEnv) {
    this.child = fork(entry, [], {
      cwd: PROJECT_ROOT,
      env,
      execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.child.on('message', (message: TOut) => this.waiting.shift()?.(message));
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  /** The next message, after sending `command` if given. */
  next(command?: unknown): Promise<TOut> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`helper ${this.child.pid} exited (${code}): ${this.stderr}`));
      this.child.once('exit', onExit);
      this.waiting.push((message) => {
        this.child.removeListener('exit', onExit);
        resolve(message);
      });
      if (command !== undefined) this.child.send(command as object);
    });
  }

  send(command: unknown): void {
    if (this.child.connected) this.child.send(command as object);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.send({ type: 'stop' } satisfies ServiceCommand);
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

interface Service {
  port: number;
  stats(): Promise<CpuSnapshot>;
  command(command: ServiceCommand): Promise<ServiceMessage>;
  stop(): Promise<void>;
}

/** The service process, or with `emptyTarget` the empty service's (serve.ts). */
async function startService(
  store: BenchStore,
  fromTemplate: Record<string, string>,
  delayMs: number,
  options: { entry?: string; emptyTarget?: BareTarget } = {},
): Promise<Service> {
  const env = functionEnv(store, fromTemplate, delayMs);
  if (options.emptyTarget) env[EMPTY_SERVICE_ENV] = JSON.stringify(options.emptyTarget);
  const helper = new Helper<ServiceMessage>(options.entry ?? SERVICE_ENTRY, env);
  const ready = await helper.next();
  if (ready.type !== 'ready') throw new Error('the service process did not start');
  return {
    port: ready.port,
    stats: async () => {
      const answer = await helper.next({ type: 'stats' } satisfies ServiceCommand);
      if (answer.type !== 'stats') throw new Error('unexpected answer from the service process');
      return answer;
    },
    command: (command) => helper.next(command),
    stop: () => helper.stop(),
  };
}

export interface Workload extends BenchRequest {
  shape: BareShape;
  label: string;
  target: BareTarget;
}

/** The workload's HTTP request alone, as the helper processes receive it. */
export function requestOf({ method, path, headers, body }: Workload): BenchRequest {
  return { method, path, headers, body };
}

/**
 * The two workloads, for one factory and a key whose limit never binds:
 * an upsert updating one existing contact (no company), and a GET by id of
 * it, both with a warm key. The bare write is what the service's own upsert
 * makes of the same body (the domain function, run on a store that only
 * captures the write).
 */
export async function workloads(store: BenchStore): Promise<{ upsert: Workload; get: Workload; secret: string }> {
  const factoryId = benchFactoryId('throughput');
  const { key } = await store.keys.create({ factoryId, type: 'secret', rateLimit: 1_000_000_000 });
  const body = { email: 'grace.hopper@example.com', name: 'Grace Hopper', title: 'Rear Admiral', phone: '+1 202 555 0100', source: 'api' };
  let captured: ContactWrite | undefined;
  const capture: ContactStore = {
    writeContact: async (write) => {
      captured = write;
      return {
        contact: { id: write.id, factoryId, email: write.email, source: 'api', createdAt: write.now, updatedAt: write.now },
        created: false,
      };
    },
    createCompanyIfMissing: async () => undefined,
    getContact: async () => undefined,
  };
  await upsertContact(capture, factoryId, upsertBody.parse(body), { now: '', creationToken: '' });
  if (!captured) throw new Error('the upsert made no write');
  const { now: _now, creationToken: _token, ...write } = captured;
  const id = write.id; // the id the upsert derived from the email's stored form
  const target: BareTarget = { factoryId, keyHash: hashSecret(key), contactId: id, write };
  const headers = { Authorization: `Bearer ${key}` };
  return {
    secret: key,
    upsert: {
      shape: 'upsert',
      label: 'upsert (update, no company)',
      method: 'POST',
      path: '/api/v1/contacts',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      target,
    },
    get: { shape: 'get', label: 'GET by id', method: 'GET', path: `/api/v1/contacts/${id}`, headers, target },
  };
}

/** The calls one bare request makes, seen by the same recorder as the service's. */
async function bareSequence(store: BenchStore, workload: Workload): Promise<{ sequence: string; rounds: number }> {
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: store.endpoint });
  const recorder = new CallRecorder(store.tables);
  recorder.install(client, { consumedCapacity: false });
  const doc = documentClientOf(client);
  const deps = dynamoDependencies(doc, store.tables);
  const operation = bareOperation(workload.shape, deps, workload.target);
  await operation(); // the first is a cold key: the measured runs are warm
  const { trace, result } = recorder.trace(operation);
  await result;
  client.destroy();
  return { sequence: sequenceOf(trace), rounds: sequentialRounds(trace.calls).rounds };
}

/** Busy and total CPU time of the whole machine so far (ms, all cores). */
function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** The share of the machine's CPU that was busy since `before`: near 1, the run was CPU-bound whatever its delay. */
function busySince(before: { busy: number; total: number }): number {
  const now = machineCpu();
  return (now.busy - before.busy) / Math.max(1, now.total - before.total);
}

/** The contact both workloads touch. */
async function seed(service: Service, upsert: Workload): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${service.port}${upsert.path}`, { method: 'POST', headers: upsert.headers, body: upsert.body });
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`seeding the throughput contact: ${answer.status} ${await answer.text()}`);
}

const cannon = (port: number, workload: Workload, connections: number, seconds: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}${workload.path}`,
    method: workload.method,
    headers: workload.headers,
    body: workload.body,
    connections,
    duration: seconds,
  });

async function runService(service: Service, workload: Workload, options: ThroughputOptions, warmUp: boolean) {
  if (warmUp) await cannon(service.port, workload, options.connections, options.warmupS);
  const before = await service.stats();
  const loadBefore = process.cpuUsage();
  const machineBefore = machineCpu();
  const result = await cannon(service.port, workload, options.connections, options.durationS);
  const machineBusy = busySince(machineBefore);
  const load = process.cpuUsage(loadBefore);
  const after = await service.stats();
  const served = Math.max(1, after.requests - before.requests);
  const problems: string[] = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx answers`);
  if (result.errors > 0) problems.push(`${result.errors} connection errors`);
  return {
    rps: result.requests.total / options.durationS,
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    cpuMsPerRequest: (after.cpuUs - before.cpuUs) / 1000 / served,
    stdoutBytesPerRequest: (after.stdoutBytes - before.stdoutBytes) / served,
    loadGeneratorCpuMsPerRequest: (load.user + load.system) / 1000 / served,
    machineBusy,
    problems,
  };
}

async function runLoops(
  loops: Helper<BareResult>,
  mode: LoopMode,
  workload: Workload,
  options: Omit<ThroughputOptions, 'runs'>,
  warmUp: boolean,
  profileFile?: string,
) {
  const command: BareRun = {
    type: 'run',
    mode,
    shape: workload.shape,
    target: workload.target,
    request: requestOf(workload),
    connections: options.connections,
    warmupMs: warmUp ? options.warmupS * 1000 : 0,
    durationMs: options.durationS * 1000,
    profileFile,
  };
  // With the warm-up on the first run: still a fair view of how busy the machine was.
  const machineBefore = machineCpu();
  const result = await loops.next(command);
  const machineBusy = busySince(machineBefore);
  const problems = result.errors > 0 ? [`${result.errors} errors (${result.firstError})`] : [];
  return {
    rps: result.requests / result.seconds,
    p50ms: result.p50ms,
    p99ms: result.p99ms,
    cpuMsPerRequest: result.cpuUs / 1000 / Math.max(1, result.requests),
    machineBusy,
    problems,
  };
}

function summarize(samples: { rps: number; p50ms: number; p99ms: number; cpuMsPerRequest: number; machineBusy: number; problems: string[] }[]): SideResult {
  return {
    rps: samples.map((sample) => sample.rps),
    p50ms: median(samples.map((sample) => sample.p50ms)),
    p99ms: median(samples.map((sample) => sample.p99ms)),
    cpuMsPerRequest: median(samples.map((sample) => sample.cpuMsPerRequest)),
    machineBusy: median(samples.map((sample) => sample.machineBusy)),
    problems: [...new Set(samples.flatMap((sample) => sample.problems))],
  };
}

/**
 * Throughput of the service (autocannon, fixed connections and duration,
 * against the Lambda entry point behind the local adapter in its own
 * process), of the empty service (the bare client's calls behind the same
 * adapter, driven by the same autocannon), and of the bare client issuing
 * the same DynamoDB calls with the same concurrency, each in its own
 * process: many short runs back to back in a rotating order, so that load
 * from other jobs on the machine hits all three alike; ratios are taken per
 * run.
 */
export async function measureThroughput(store: BenchStore, options: ThroughputOptions): Promise<ThroughputResult> {
  const say = options.onProgress ?? (() => undefined);
  const { upsert, get } = await workloads(store);
  // All three from bundles (bundle-entry.ts): the code as it ships, no TypeScript loader.
  const dir = mkdtempSync(join(tmpdir(), 'contacts-bench-throughput-'));
  const [serveBundle, loopBundle] = await Promise.all([
    bundleEntry(SERVICE_ENTRY, join(dir, 'serve.cjs')),
    bundleEntry(LOOP_ENTRY, join(dir, 'loop-worker.cjs')),
  ]);
  const service = await startService(store, options.functionEnvironment, options.delayMs, { entry: serveBundle });
  // Both workloads read and write the same contact with the same key: one target.
  const empty = await startService(store, options.functionEnvironment, options.delayMs, { entry: serveBundle, emptyTarget: upsert.target });
  const bare = new Helper<BareResult>(loopBundle, functionEnv(store, options.functionEnvironment, options.delayMs));
  const rows: ThroughputRow[] = [];
  try {
    await seed(service, upsert);
    for (const workload of [upsert, get]) {
      type Run = Awaited<ReturnType<typeof runLoops>>;
      const serviceRuns: Awaited<ReturnType<typeof runService>>[] = [];
      const emptyRuns: Awaited<ReturnType<typeof runService>>[] = [];
      const bareRuns: Run[] = [];
      for (let run = 0; run < options.runs; run += 1) {
        // Rotate the order, so drift on a shared machine hits each alike.
        const first = run === 0;
        const steps = [
          async () => serviceRuns.push(await runService(service, workload, options, first)),
          async () => emptyRuns.push(await runService(empty, workload, options, first)),
          async () => bareRuns.push(await runLoops(bare, 'bare', workload, options, first)),
        ];
        for (let step = 0; step < steps.length; step += 1) await (steps[(step + run) % steps.length] as () => Promise<number>)();
      }
      // Each run against the run next to it.
      const perRun = (runs: { rps: number }[], against: { rps: number }[]) => runs.map((run, index) => run.rps / (against[index] as { rps: number }).rps);
      const ratios = perRun(serviceRuns, emptyRuns);
      const emptyRatios = perRun(emptyRuns, bareRuns);
      const bareRatios = perRun(serviceRuns, bareRuns);
      const rps = (runs: { rps: number }[]) => median(runs.map((r) => r.rps)).toFixed(0);
      say(
        `  +${options.delayMs} ms/call, ${workload.label}: service ${rps(serviceRuns)} req/s, empty service ${rps(emptyRuns)} req/s, bare ${rps(bareRuns)} req/s; service/empty ${median(ratios).toFixed(3)}, empty/bare ${median(emptyRatios).toFixed(2)} (medians of ${options.runs} runs)`,
      );
      const recorded = await bareSequence(store, workload);
      rows.push({
        shape: workload.shape,
        label: workload.label,
        service: {
          ...summarize(serviceRuns),
          stdoutBytesPerRequest: median(serviceRuns.map((run) => run.stdoutBytesPerRequest)),
          loadGeneratorCpuMsPerRequest: median(serviceRuns.map((run) => run.loadGeneratorCpuMsPerRequest)),
        },
        empty: summarize(emptyRuns),
        bare: summarize(bareRuns),
        ratios,
        emptyRatios,
        bareRatios,
        bareSequence: recorded.sequence,
        bareRounds: recorded.rounds,
      });
    }
  } finally {
    await service.stop();
    await empty.stop();
    await bare.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const { onProgress: _progress, ...kept } = options;
  return { rows, options: kept };
}

export interface ProfileFiles {
  /** The service process: local HTTP adapter and handler. */
  service: string;
  /** The handler called in-process: what runs inside a Lambda. */
  handler: string[];
}

/**
 * Profiles with the V8 CPU profiler (what --cpu-prof uses), after a warm-up
 * so that start-up is not in the profile: the service process while
 * autocannon drives both workloads, and the handler called in-process on
 * each workload. Returns the .cpuprofile files.
 */
export async function profileService(store: BenchStore, given: Omit<ThroughputOptions, 'runs' | 'delayMs'>): Promise<ProfileFiles> {
  // Enough samples whatever the run length of the measurement; no injected
  // delay: the profile is of the CPU each request costs.
  const options: Omit<ThroughputOptions, 'runs'> = { ...given, durationS: Math.max(given.durationS, 4), delayMs: 0 };
  const { upsert, get } = await workloads(store);
  const dir = mkdtempSync(join(tmpdir(), 'contacts-bench-profile-'));
  const service = await startService(store, options.functionEnvironment, options.delayMs);
  const files: ProfileFiles = { service: join(dir, 'service.cpuprofile'), handler: [] };
  try {
    await seed(service, upsert);
    for (const workload of [upsert, get]) await cannon(service.port, workload, options.connections, options.warmupS);
    await service.command({ type: 'profile-start' });
    for (const workload of [upsert, get]) await cannon(service.port, workload, options.connections, options.durationS);
    await service.command({ type: 'profile-stop', file: files.service });
  } finally {
    await service.stop();
  }
  const inProcess = new Helper<BareResult>(LOOP_ENTRY, functionEnv(store, options.functionEnvironment, options.delayMs));
  try {
    for (const workload of [upsert, get]) {
      const file = join(dir, `handler-${workload.shape}.cpuprofile`);
      await runLoops(inProcess, 'handler', workload, options, true, file);
      files.handler.push(file);
    }
  } finally {
    await inProcess.stop();
  }
  return files;
}
