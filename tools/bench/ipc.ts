import type { BareShape, BareTarget } from './bare-client';
import type { BenchRequest } from './container';

/** Messages between the benchmark and its service and bare-client processes. */

/** Set (to the bare client's target, JSON) for serve.ts to answer as the empty service (empty-service.ts). */
export const EMPTY_SERVICE_ENV = 'BENCH_EMPTY_SERVICE';

export interface CpuSnapshot {
  /** process.cpuUsage(): user + system, microseconds. */
  cpuUs: number;
  /** Bytes the process wrote to stdout (the service's log lines and metrics). */
  stdoutBytes: number;
  /** Requests the service answered. */
  requests: number;
}

export type ServiceMessage = { type: 'ready'; port: number } | ({ type: 'stats' } & CpuSnapshot) | { type: 'profiling' } | { type: 'profiled'; file: string };
/** `profile-start`/`profile-stop`: the V8 CPU profiler (what --cpu-prof uses), around the measured part only. */
export type ServiceCommand = { type: 'stats' } | { type: 'stop' } | { type: 'profile-start' } | { type: 'profile-stop'; file: string };

/**
 * `bare`: the DynamoDB calls alone; `handler`: the Lambda handler itself
 * called with API Gateway events, in-process, no HTTP (what runs inside
 * Lambda, without what API Gateway and the local adapter do): profiled, and
 * counted under valgrind.
 */
export type LoopMode = 'bare' | 'handler';

export interface BareRun {
  type: 'run';
  mode: LoopMode;
  shape: BareShape;
  target: BareTarget;
  /** The HTTP request the handler mode turns into events. */
  request: BenchRequest;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Profile the measured window (V8 CPU profiler) into this .cpuprofile file. */
  profileFile?: string;
}

export interface BareResult {
  type: 'result';
  requests: number;
  seconds: number;
  p50ms: number;
  p99ms: number;
  errors: number;
  firstError?: string;
  cpuUs: number;
}

/** Set (to a DriverSetup, JSON) for instructions-driver.ts, run under valgrind by instructions.ts. */
export const DRIVER_ENV = 'BENCH_INSTRUCTIONS_SETUP';

export interface DriverSetup {
  mode: LoopMode;
  shape: BareShape;
  requests: number;
  target: BareTarget;
  /** The HTTP request the handler mode turns into an API Gateway event. */
  request: BenchRequest;
}
