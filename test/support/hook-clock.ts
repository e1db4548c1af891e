import type { Clock } from '../../lambda/infrastructure/deploy/clock';
import type { HookEvent, HookStatus } from '../../lambda/infrastructure/deploy/hook-report';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';

/** A CodeDeploy lifecycle hook event, as the hooks' tests send it. */
export const HOOK_EVENT: HookEvent = { DeploymentId: 'd-ABC123', LifecycleEventHookExecutionId: 'exec-42' };

export const T0 = Date.parse('2026-11-27T12:00:00Z');

/**
 * A clock whose waits end on the event loop's next turn, after every answer
 * already on its way (promise callbacks run first), and move the time on by
 * what they waited, unless cancelled first: a deadline minutes away is
 * reached without waiting.
 */
export function fakeClock(): Clock & { time: number } {
  const clock = {
    time: T0,
    now: () => clock.time,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          if (!signal?.aborted) clock.time += ms;
          resolve();
        }),
      ),
  };
  return clock;
}

/** The report port of a hook: what it told CodeDeploy and when; `fails(call)` makes a call throw. */
export function reportRecorder(clock: Clock, fails: (call: number) => Error | undefined = () => undefined) {
  const reports: { event: HookEvent; status: HookStatus; at: number }[] = [];
  const calls: number[] = [];
  const report = async (event: HookEvent, status: HookStatus) => {
    calls.push(clock.now());
    const failure = fails(calls.length);
    if (failure) throw failure;
    reports.push({ event, status, at: clock.now() });
  };
  return { reports, calls, report };
}

/** A logger writing its lines into `lines`, parsed. */
export function lineLogger(service: string) {
  const lines: Record<string, unknown>[] = [];
  const write = (text: string) => lines.push(JSON.parse(text) as Record<string, unknown>);
  return { lines, logger: new JsonLogger({ service, level: 'INFO', out: write, err: write }) };
}

/** An error as the SDK throws it: its name is CodeDeploy's or Lambda's exception. */
export const awsError = (name: string, message = name) => Object.assign(new Error(message), { name });
