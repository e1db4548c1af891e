import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { loggerFromEnv } from '../observability/logger';
import { systemClock } from './clock';
import { reportToCodeDeploy } from './codedeploy-report';
import { createPostTrafficHook } from './post-traffic-hook';

/** The `service` of the bake's log lines. */
export const POST_TRAFFIC_SERVICE_NAME = 'contacts-bake';

// Each call is bounded by the hook itself (an abort signal); it reads again at its next poll and retries its report.
const cloudWatch = new CloudWatchClient({ maxAttempts: 2 });

/**
 * The post-traffic hook's entry point (lib/gradual-deployment.ts): one per
 * function, allowed to read only its own release alarms and to report only
 * to its own deployment group.
 */
export const handler = createPostTrafficHook(
  {
    alarmStates: async (names, signal) => {
      const answer = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: names, AlarmTypes: ['MetricAlarm'] }), { abortSignal: signal });
      return Object.fromEntries(
        (answer.MetricAlarms ?? []).flatMap((alarm) => (alarm.AlarmName && alarm.StateValue ? [[alarm.AlarmName, alarm.StateValue]] : [])),
      );
    },
    report: reportToCodeDeploy,
    logger: loggerFromEnv(process.env, POST_TRAFFIC_SERVICE_NAME),
    clock: systemClock,
  },
  process.env.ALARM_NAMES,
  process.env.BAKE_SECONDS,
);
