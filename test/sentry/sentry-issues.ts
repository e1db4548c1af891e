import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { tables, testDoc } from '../support/local-api';
import { tallied } from '../support/tally';

const control = controlDependencies(testDoc(), tables, 'Platform');
const operator = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/ada' };

/** A factory's issues as the control room lists them, once the tally counted everything sent before. */
export async function issuesOf(factoryId: string): Promise<Record<string, any>[]> {
  await tallied();
  return (await handleControlRequest({ ...control, now: () => new Date() }, { operation: 'issues.list', factoryId }, operator)).body.issues as Record<
    string,
    any
  >[];
}

const withReports = controlDependencies(testDoc(), tables, 'Platform', { reports: tables.reports });

/** One event as the control room's event page reads it (reports.event: its frames as shown, its issue's id). */
export async function eventAsShown(factoryId: string, eventId: string): Promise<Record<string, any>> {
  const answer = await handleControlRequest({ ...withReports, now: () => new Date() }, { operation: 'reports.event', factoryId, eventId }, operator);
  return answer.body.event as Record<string, any>;
}
