import { withinLimit } from './clock';
import { isHookEvent, messageOf, reportBy, type HookContext, type HookStatus, type ReportPorts } from './hook-report';
import { ALARM_READ_MS, BAKE_POLL_MS, DEADLINE_MARGIN_MS, REPORT_WINDOW_MS } from './hook-timing';

/** What the bake reads: each alarm's state by name, as CloudWatch's DescribeAlarms answers; an alarm it does not know is absent. */
export interface BakePorts extends ReportPorts {
  alarmStates(names: string[], signal: AbortSignal): Promise<Record<string, string>>;
}

export interface BakeResult {
  status: HookStatus;
  /** Why it failed: the alarms in ALARM, or what kept it from judging. */
  problem?: string;
  /** Reads of the alarms that answered. */
  reads: number;
}

/** The hook's ALARM_NAMES: a non-empty list of names, or an error saying what is wrong. */
function alarmNamesFrom(json: string | undefined): string[] {
  if (!json) throw new Error('ALARM_NAMES is not set: the stack gives each post-traffic hook the alarms of its release');
  const names: unknown = JSON.parse(json);
  if (!Array.isArray(names) || names.length === 0 || !names.every((name) => typeof name === 'string' && name !== '')) {
    throw new Error('ALARM_NAMES must be a JSON list of alarm names');
  }
  return names as string[];
}

function bakeSecondsFrom(raw: string | undefined): number {
  const seconds = Number(raw);
  if (raw === undefined || raw === '' || !Number.isInteger(seconds) || seconds < 0)
    throw new Error(`BAKE_SECONDS must be a whole number of seconds, got "${raw}"`);
  return seconds;
}

/**
 * The bake (docs/deploying.md#the-bake): CodeDeploy runs this hook after all
 * traffic has moved to the new version (AfterAllowTraffic); it watches the
 * release's own alarms (ALARM_NAMES) for BAKE_SECONDS, reading them every
 * BAKE_POLL_MS, and reports Failed as soon as one is in ALARM (CodeDeploy
 * then moves traffic back to the old version), or Succeeded once the whole
 * bake has passed with none, judged by a read taken after the bake ended. A
 * read that fails is tried again at the next poll; without any read after
 * the bake, the release cannot be judged and is reported Failed. Like the
 * pre-traffic check, it reports before its own timeout whatever happens.
 */
export function createPostTrafficHook(ports: BakePorts, alarmNamesJson: string | undefined, bakeSecondsRaw: string | undefined) {
  return async (event: unknown, context: HookContext): Promise<BakeResult> => {
    if (!isHookEvent(event)) {
      throw new Error('expected a CodeDeploy lifecycle hook event with DeploymentId and LifecycleEventHookExecutionId');
    }
    const { clock, logger } = ports;
    const started = clock.now();
    const deadline = started + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS;
    const lastReadBy = deadline - REPORT_WINDOW_MS;
    const deployment = { deploymentId: event.DeploymentId };
    let status: HookStatus = 'Failed';
    let problem: string | undefined;
    let reads = 0;
    try {
      const names = alarmNamesFrom(alarmNamesJson);
      const bakeEnd = Math.min(started + bakeSecondsFrom(bakeSecondsRaw) * 1000, lastReadBy - ALARM_READ_MS);
      logger.info('bake started', { ...deployment, alarms: names, bakeSeconds: Math.round((bakeEnd - started) / 1000) });
      let judged = false;
      while (!judged) {
        const readAt = clock.now();
        const read = await withinLimit(clock, ALARM_READ_MS, (signal) => ports.alarmStates(names, signal)).catch((error: unknown) => ({ error }));
        if ('value' in read) {
          reads += 1;
          const firing = names.filter((name) => read.value[name] === 'ALARM');
          const unknown = names.filter((name) => read.value[name] === undefined);
          if (firing.length > 0 || unknown.length > 0) {
            problem = firing.length > 0 ? `in ALARM: ${firing.join(', ')}` : `no such alarm: ${unknown.join(', ')}`;
            break;
          }
          if (readAt >= bakeEnd) {
            status = 'Succeeded';
            judged = true;
            break;
          }
        } else {
          logger.warn('bake: could not read the alarms, reading again', {
            ...deployment,
            error: 'error' in read ? messageOf(read.error) : `no answer within ${ALARM_READ_MS} ms`,
          });
        }
        const now = clock.now();
        if (now >= bakeEnd && now + 5000 > lastReadBy) {
          problem = 'could not read the release alarms after the bake: the release cannot be judged';
          break;
        }
        await clock.sleep(now >= bakeEnd ? 5000 : Math.min(BAKE_POLL_MS, bakeEnd - now));
      }
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      logger.error('bake could not run', { ...deployment, error: problem });
    }
    const { attempts, alreadyClosed } = await reportBy(ports, event, status, deadline, 'bake');
    const verdict = {
      ...deployment,
      status,
      ...(problem ? { problem } : {}),
      reads,
      reportAttempts: attempts,
      ...(alreadyClosed ? { alreadyClosed } : {}),
      ms: Math.round(clock.now() - started),
    };
    if (status === 'Succeeded') logger.info('bake', verdict);
    else logger.error('bake', verdict);
    return { status, ...(problem ? { problem } : {}), reads };
  };
}
