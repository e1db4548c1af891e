/**
 * Runs the hostile-input property: generated requests against the handler
 * in-process (as proxy events) and through the local HTTP adapter (as raw
 * bytes), each answer judged by the oracle. Shared by the jest test (a small
 * sample) and `npm run fuzz` (100,000 requests and more).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import type { Server } from 'node:http';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import type { TableNames } from '../../lambda/infrastructure/store/schema';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { OpenApiChecker } from '../../openapi/response-check';
import { judgeAnswer, judgeRefusal, splitTarget } from './oracle';
import { partitionSnapshot } from './partition';
import { describeRequest, type FuzzRequest } from './request';
import { hostileRequest } from './requests';
import { invoke, sendRaw, type FuzzResponse } from './transport';
import { createWorld, fuzzHostHandler, worldSecrets, type FuzzWorld } from './world';

export type Channel = 'in-process' | 'http';

/** The host under test (both APIs, dispatched as npm start does), in-process and behind the HTTP adapter, with its world. */
export interface FuzzTarget {
  world: FuzzWorld;
  handler: ApiHandler;
  port: number;
  doc: DynamoDBDocumentClient;
  tables: TableNames;
  close(): Promise<void>;
}

export async function startFuzzTarget(doc: DynamoDBDocumentClient, tables: TableNames): Promise<FuzzTarget> {
  const handler = fuzzHostHandler(doc, tables);
  const world = await createWorld(handler, doc, tables);
  const server: Server = createHttpAdapter(handler);
  const port = await listen(server, 0, '127.0.0.1');
  return {
    world,
    handler,
    port,
    doc,
    tables,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface FuzzFailure {
  channel: Channel;
  seed: number;
  path: string | null;
  request: string;
  problems: string[];
  /** Arguments for `npm run fuzz --` that run this counterexample again. */
  replay: string;
}

export interface FuzzSummary {
  seed: number;
  requests: number;
  perChannel: Record<Channel, number>;
  /** Status → count; answers of the HTTP layer itself are counted as e.g. "431 (http layer)". */
  statuses: Record<string, number>;
  failures: FuzzFailure[];
  ms: number;
}

export interface FuzzOptions {
  /** Generated requests per channel. */
  runs: Record<Channel, number>;
  seed: number;
  /** Concurrent property runs per channel (each its own seed: seed, seed + 1, …). */
  workers?: number;
  /** Replay one counterexample: its channel, seed and path. */
  replay?: { channel: Channel; seed: number; path: string };
  onProgress?: (requests: number) => void;
}

/** Thrown inside the property: the oracle's findings about one answer. */
class Findings extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

let openApi: OpenApiChecker | undefined;

/** What in the answer the OpenAPI document (openapi/contacts-service.json) does not describe. */
function undocumented(channel: Channel, request: FuzzRequest, response: FuzzResponse): string[] {
  openApi ??= OpenApiChecker.load();
  const { path, query } = splitTarget(request.target);
  // HTTP drops the body of an answer to HEAD; in-process the handler's result still has it.
  const text = channel === 'in-process' && request.method === 'HEAD' ? '' : response.body;
  return openApi.problems({ method: request.method, path: query ? `${path}?${query}` : path }, { status: response.status, headers: response.headers, text });
}

function judge(channel: Channel, request: FuzzRequest, response: FuzzResponse, world: FuzzWorld): string[] {
  if (channel === 'http' && !response.headers['x-request-id']) return [...judgeRefusal(request, response), ...undocumented(channel, request, response)];
  // A HEAD answer carries no body over HTTP.
  const bodyless = channel === 'http' && request.method === 'HEAD';
  return [...judgeAnswer(request, response, world, { bodyless }), ...undocumented(channel, request, response)];
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzSummary> {
  const started = performance.now();
  const { world } = target;
  const statuses: Record<string, number> = {};
  const perChannel: Record<Channel, number> = { 'in-process': 0, http: 0 };
  const failures: FuzzFailure[] = [];
  const secrets = worldSecrets(world);
  let requests = 0;

  const property = (channel: Channel) =>
    fc.asyncProperty(hostileRequest(world), async (request) => {
      let response: FuzzResponse;
      try {
        response = channel === 'in-process' ? await invoke(target.handler, request) : await sendRaw(target.port, request);
      } catch (error) {
        const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
        const leak = secrets.some((secret) => text.includes(secret)) ? ' (and the exception repeats a key)' : '';
        throw new Findings([`no answer: ${error instanceof Error ? error.message : String(error)}${leak}`]);
      }
      requests += 1;
      perChannel[channel] += 1;
      const label = channel === 'http' && !response.headers['x-request-id'] ? `${response.status} (http layer)` : String(response.status);
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (requests % 1000 === 0) options.onProgress?.(requests);
      const problems = judge(channel, request, response, world);
      if (problems.length > 0) throw new Findings(problems);
    });

  const check = async (channel: Channel, seed: number, numRuns: number, path?: string) => {
    if (numRuns <= 0) return;
    const details = await fc.check(property(channel), { seed, numRuns, path, timeout: 30_000 });
    if (!details.failed) return;
    const request = details.counterexample?.[0];
    const error = details.errorInstance;
    failures.push({
      channel,
      seed: details.seed,
      path: details.counterexamplePath,
      request: request ? describeRequest(request) : '(none)',
      problems: error instanceof Findings ? error.problems : [error instanceof Error ? error.message : String(error)],
      replay: `--replay ${channel}:${details.seed}:${details.counterexamplePath}`,
    });
  };

  const before = await partitionSnapshot(target.doc, target.tables.contacts, world.other.factoryId);
  if (options.replay) {
    await check(options.replay.channel, options.replay.seed, 1, options.replay.path);
  } else {
    const workers = options.workers ?? 4;
    const jobs: Promise<void>[] = [];
    (['in-process', 'http'] as const).forEach((channel, c) => {
      const total = options.runs[channel];
      for (let w = 0; w < workers; w += 1) {
        const share = Math.floor(total / workers) + (w < total % workers ? 1 : 0);
        jobs.push(check(channel, (options.seed + c * workers + w) | 0, share));
      }
    });
    await Promise.all(jobs);
  }
  // Tenant isolation at scale: nothing the caller sent changed the other factory's partition.
  if ((await partitionSnapshot(target.doc, target.tables.contacts, world.other.factoryId)) !== before) {
    failures.push({
      channel: 'in-process',
      seed: options.seed,
      path: null,
      request: '(all of them)',
      problems: [`the other factory's partition (${world.other.factoryId}) changed during the run`],
      replay: `--seed ${options.seed}`,
    });
  }
  return { seed: options.seed, requests, perChannel, statuses, failures, ms: Math.round(performance.now() - started) };
}

/** The summary as text: requests, statuses, time, and each failure with how to replay it. */
export function formatSummary(summary: FuzzSummary): string {
  const seconds = summary.ms / 1000;
  const statuses = Object.entries(summary.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `  ${status.padEnd(18)} ${String(count).padStart(7)}`)
    .join('\n');
  const lines = [
    `requests: ${summary.requests} (in-process ${summary.perChannel['in-process']}, http ${summary.perChannel.http}) in ${seconds.toFixed(1)} s, ${Math.round(summary.requests / Math.max(seconds, 0.001))} req/s, seed ${summary.seed}`,
    'statuses:',
    statuses,
    `failures: ${summary.failures.length === 0 ? 'none' : summary.failures.length}`,
  ];
  for (const failure of summary.failures) {
    lines.push(
      `- ${failure.channel}, seed ${failure.seed}, path ${failure.path}: ${failure.problems.join('; ')}`,
      failure.request.replace(/^/gm, '    '),
      `    replay: npm run fuzz -- ${failure.replay}`,
    );
  }
  return lines.join('\n');
}
