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

/**
 * Sends each probe in turn (in order: a later probe may rely on what an
 * earlier one proved) and judges each answer. An invocation that throws
 * (the version cannot be invoked at all) fails its probe with the error.
 */
export async function runProbes(invoke: (payload: string) => Promise<Invocation>, probes: readonly Probe[]): Promise<ProbeOutcome[]> {
  const outcomes: ProbeOutcome[] = [];
  for (const probe of probes) {
    const started = performance.now();
    let outcome: ProbeOutcome;
    try {
      outcome = judge(probe, await invoke(JSON.stringify(probe.event)), Math.round(performance.now() - started));
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      outcome = { name: probe.name, passed: false, problem: `could not invoke the new version: ${message}`, ms: Math.round(performance.now() - started) };
    }
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
    if (typeof probe?.name !== 'string' || !('event' in probe) || (probe.expectStatus !== undefined && typeof probe.expectStatus !== 'number')) {
      throw new Error(`PROBES holds a malformed probe: ${quote(JSON.stringify(probe))}`);
    }
  }
  return parsed as Probe[];
}
