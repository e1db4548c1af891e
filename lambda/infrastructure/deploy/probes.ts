import { systemClock, withinLimit, type Clock } from './clock';
import { probeBudgetMs } from './hook-timing';

/**
 * What the pre-traffic hook sends a new version and what it must answer
 * (docs/deploying.md#the-pre-traffic-check). The stack writes each
 * function's probes into its hook's environment (lib/pre-traffic-probes.ts);
 * the hook only invokes and compares, so adding a function adds probes, not
 * hook code. Pure: no AWS types.
 */
export interface Probe {
  /** What the answer proves, as the hook's log line says it. */
  name: string;
  /** The payload, shaped as the function's trigger sends it. */
  event: unknown;
  /**
   * The `statusCode` the answer must carry (API Gateway, function URL and
   * self-check answers); absent: any answer of an invocation that did not
   * fail will do (a stream consumer given an empty batch, say).
   */
  expectStatus?: number;
  /**
   * The whole answer, when its status says nothing (a queue or stream
   * consumer's batch response: a storage call refused shows as a failed
   * item, not as a failed invocation). Compared as JSON.
   */
  expectPayload?: unknown;
  /**
   * The longest its invocation may run, ms: the function's own timeout, which
   * the stack writes in (lib/released-function.ts). The hook waits that and a
   * cold start for the answer, and its own timeout is the sum over its probes.
   */
  timeoutMs?: number;
}

/** What one invocation returned: the function's error type when it failed (Lambda's FunctionError), and the payload. */
export interface Invocation {
  functionError?: string;
  payload: string;
}

export interface ProbeOutcome {
  name: string;
  passed: boolean;
  /** The answer's status, when it had one. */
  status?: number;
  /** Why it failed, in a sentence; absent when it passed. */
  problem?: string;
  ms: number;
}

/** The longest part of an answer a log line quotes. */
const QUOTE_MAX = 300;
const quote = (text: string) => (text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);

function statusOf(payload: string): number | undefined {
  try {
    const parsed = JSON.parse(payload) as { statusCode?: unknown } | null;
    return typeof parsed?.statusCode === 'number' ? parsed.statusCode : undefined;
  } catch {
    return undefined;
  }
}

/** An answer as JSON.stringify writes it (spacing aside), or the text itself when it is not JSON. */
function canonical(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload));
  } catch {
    return payload;
  }
}

/** Judges one answer against its probe. */
export function judge(probe: Probe, invocation: Invocation, ms: number): ProbeOutcome {
  const status = statusOf(invocation.payload);
  const base = { name: probe.name, ms, ...(status === undefined ? {} : { status }) };
  if (invocation.functionError !== undefined) {
    return { ...base, passed: false, problem: `the invocation failed (${invocation.functionError}): ${quote(invocation.payload)}` };
  }
  if (probe.expectStatus !== undefined && status !== probe.expectStatus) {
    return { ...base, passed: false, problem: `expected status ${probe.expectStatus}, got ${status ?? 'no status'}: ${quote(invocation.payload)}` };
  }
  if (probe.expectPayload !== undefined && canonical(invocation.payload) !== JSON.stringify(probe.expectPayload)) {
    return { ...base, passed: false, problem: `expected the answer ${quote(JSON.stringify(probe.expectPayload))}, got ${quote(invocation.payload)}` };
  }
  return { ...base, passed: true };
}

/** Invokes the new version with one payload; the signal aborts the call when the hook stops waiting. */
export type Invoke = (payload: string, signal?: AbortSignal) => Promise<Invocation>;

/** When the probes must be done, and the clock they are timed by. */
export interface ProbeLimits {
  clock: Clock;
  /** Epoch ms by which every answer must be in: a probe still waiting then fails, and later probes are not sent. */
  until: number;
  /** Epoch ms until which an AccessDenied invocation is tried again (IAM applying the hook's fresh grant). */
  accessDeniedUntil: number;
}

/** Without a deadline, and AccessDenied never retried: as the tests send probes to the handlers. */
const UNLIMITED: ProbeLimits = { clock: systemClock, until: Number.POSITIVE_INFINITY, accessDeniedUntil: 0 };

/** The default wait for a probe that names no timeout (the stack always names one). */
const DEFAULT_PROBE_TIMEOUT_MS = 60_000;

const NO_ANSWER = 'no answer';

/** IAM's "not yet": the error Lambda answers while a fresh grant has not reached it. */
export const isAccessDenied = (error: unknown): boolean =>
  error instanceof Error && (/AccessDenied/.test(error.name) || /AccessDenied|not authorized to perform/.test(error.message));

const describeError = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** One probe: its answer judged, tried again after an AccessDenied while `limits` allow, failed when no answer comes in time. */
async function sendProbe(invoke: Invoke, probe: Probe, limits: ProbeLimits): Promise<ProbeOutcome> {
  const { clock } = limits;
  const started = clock.now();
  const elapsed = () => Math.round(clock.now() - started);
  let pause = 1000;
  for (;;) {
    const budget = Math.min(probeBudgetMs(probe.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS), limits.until - clock.now());
    if (budget <= 0) return { name: probe.name, passed: false, problem: 'not sent: no time left before the hook must report', ms: elapsed() };
    try {
      const answer = await withinLimit(clock, budget, (signal) => invoke(JSON.stringify(probe.event), signal));
      if (answer.timedOut)
        return { name: probe.name, passed: false, problem: `${NO_ANSWER} within ${budget} ms: the new version hangs or is too slow`, ms: elapsed() };
      return judge(probe, answer.value, elapsed());
    } catch (error) {
      if (isAccessDenied(error) && clock.now() + pause < Math.min(limits.accessDeniedUntil, limits.until)) {
        await clock.sleep(pause);
        pause = Math.min(pause * 2, 8000);
        continue;
      }
      return { name: probe.name, passed: false, problem: `could not invoke the new version: ${describeError(error)}`, ms: elapsed() };
    }
  }
}

/**
 * Sends each probe in turn (in order: a later probe may rely on what an
 * earlier one proved) and judges each answer. An invocation that throws
 * (the version cannot be invoked at all) fails its probe with the error;
 * one that does not answer by its timeout, or by `limits.until`, fails it
 * too, and the probes after it are not sent.
 */
export async function runProbes(invoke: Invoke, probes: readonly Probe[], limits: ProbeLimits = UNLIMITED): Promise<ProbeOutcome[]> {
  const outcomes: ProbeOutcome[] = [];
  let hung = false;
  for (const probe of probes) {
    // A version that hung once would hang again: the time goes to the report instead.
    const outcome: ProbeOutcome = hung
      ? { name: probe.name, passed: false, problem: 'not sent: an earlier probe got no answer', ms: 0 }
      : await sendProbe(invoke, probe, limits);
    hung ||= outcome.problem?.startsWith(NO_ANSWER) === true;
    outcomes.push(outcome);
  }
  return outcomes;
}

/** Reads the probes the stack wrote into the hook's environment; throws naming what is wrong. */
export function probesFromJson(text: string | undefined): Probe[] {
  if (!text) throw new Error('PROBES is not set: the stack gives each hook the probes of its function');
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('PROBES must be a non-empty JSON list of probes');
  for (const probe of parsed as Partial<Probe>[]) {
    const badNumber = (value: unknown) => value !== undefined && typeof value !== 'number';
    if (typeof probe?.name !== 'string' || !('event' in probe) || badNumber(probe.expectStatus) || badNumber(probe.timeoutMs)) {
      throw new Error(`PROBES holds a malformed probe: ${quote(JSON.stringify(probe))}`);
    }
  }
  return parsed as Probe[];
}
