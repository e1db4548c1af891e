import { snapshotOf, type Alert } from './alert';
import type { Issue } from '../ingest/issues/issue';
import { alertPayload } from './payload';
import { ALERT_RETENTION_DAYS, type AlertStore, type Delivery, type DeliveryQueue, type Destination, type PlatformTopic } from './ports';
import { settingsOf, type AlertSettings } from './settings';
import { webhookIdOf } from './signature';
import { alertsOf } from './triggers';
import { isCanaryFactory } from '../kernel/canary';
import { scrubbedTitle } from './scrub';
import { companiesOfPeople, type AffectedReader } from '../ingest/issues/affected';

/** Contact ids an issue.resolved alert lists at most; companies the others list. */
export const ALERT_CONTACT_IDS_MAX = 1000;
export const ALERT_TOP_COMPANIES = 5;

export interface NotifierDependencies {
  store: AlertStore;
  queue: DeliveryQueue;
  /** The platform team's SNS topic, when the stack has one. */
  topic?: PlatformTopic;
  /** Where payload links point: the control room's web app. */
  linkBase: string;
  now?: () => Date;
  /** Who an issue affects (lambda/infrastructure/store/reports/affected-items.ts); without it alerts carry the counts only. */
  affected?: Pick<AffectedReader, 'peopleOf'>;
}

/**
 * The alert with who it is about (docs/alerts.md#the-payload), read once when it is first sent: for issue.resolved
 * the affected people's contact ids, for the others the biggest companies by people. Ids and counts only.
 */
async function withPeople(alert: Alert, deps: NotifierDependencies, nowMs: number): Promise<Alert> {
  if (!deps.affected) return alert;
  const { factoryId, issueId } = alert.issue;
  const people = await deps.affected.peopleOf(factoryId, issueId, ALERT_CONTACT_IDS_MAX, nowMs);
  if (alert.type === 'issue.resolved') return { ...alert, people: { contactIds: people.items.map((person) => person.contactId).sort() } };
  const topCompanies = companiesOfPeople(people.items)
    .slice(0, ALERT_TOP_COMPANIES)
    .map(({ companyId, people: count }) => ({ companyId, people: count }));
  return { ...alert, people: { topCompanies } };
}

/** One write of an issue, as its stream record shows it (the store reads it: lambda/infrastructure/store/reports/stream-images.ts). */
export interface IssueChange {
  before?: Issue;
  after?: Issue;
}

/**
 * What one stream batch reads once per factory: the alert settings and the
 * destinations (a destination added while a batch runs is used from the
 * next batch on).
 */
export class FactoryLookups {
  private readonly settingsByFactory = new Map<string, Promise<AlertSettings>>();
  private readonly destinationsByFactory = new Map<string, Promise<Destination[]>>();

  constructor(private readonly store: AlertStore) {}

  settings(factoryId: string): Promise<AlertSettings> {
    let found = this.settingsByFactory.get(factoryId);
    if (!found) {
      found = this.store.settings(factoryId).then(settingsOf);
      this.settingsByFactory.set(factoryId, found);
    }
    return found;
  }

  destinations(factoryId: string): Promise<Destination[]> {
    let found = this.destinationsByFactory.get(factoryId);
    if (!found) {
      found = this.store.destinations(factoryId);
      this.destinationsByFactory.set(factoryId, found);
    }
    return found;
  }
}

const receives = (destination: Destination, alert: Alert) =>
  destination.disabled === undefined && (destination.types.length === 0 || destination.types.includes(alert.type));

/** The platform topic's line for an alert: what happened, to which issue of which factory. */
function topicMessage(alert: Alert, body: string): { subject: string; message: string } {
  const what = { 'issue.created': 'New issue', 'issue.regressed': 'Regression', 'issue.spiking': 'Spike', 'issue.resolved': 'Resolved' }[alert.type];
  const title = scrubbedTitle(alert.issue.title);
  return { subject: `${what} in ${alert.issue.factoryId}: ${title}`.slice(0, 99), message: body };
}

/**
 * Sends one alert on its way: stored once under its id, then one delivery
 * per destination that takes its type (each stored once per alert and
 * destination, its first attempt queued), and a line on the platform topic.
 * A stream record delivered again finds the alert stored and, once its
 * deliveries were all made (`fannedOut`), does nothing; if the first run
 * stopped half-way, the second makes what is missing: the deliveries' own
 * conditional writes keep it to one per destination, and an attempt is
 * taken once whatever the number of queued messages (./deliver.ts).
 */
export async function fanOut(found: Alert, deps: NotifierDependencies, lookups: FactoryLookups): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  const at = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + ALERT_RETENTION_DAYS * 86_400;
  const { factoryId, issueId } = found.issue;
  const recorded = await deps.store.recordAlert({ factoryId, alertId: found.alertId, type: found.type, issueId, occurredAt: found.occurredAt, at, expiresAt });
  if (recorded.fannedOut) return false;
  const alert = await withPeople(found, deps, now.getTime());

  const body = alertPayload(alert, deps.linkBase);
  const webhookId = webhookIdOf(alert.alertId);
  const destinations = (await lookups.destinations(factoryId)).filter((destination) => receives(destination, alert));
  await Promise.all(
    destinations.map(async (destination) => {
      const delivery: Delivery = {
        factoryId,
        destinationId: destination.destinationId,
        sk: `${alert.occurredAt}#${alert.alertId}`,
        alertId: alert.alertId,
        webhookId,
        type: alert.type,
        issueId,
        occurredAt: alert.occurredAt,
        body,
        status: 'pending',
        attempts: 0,
        createdAt: at,
        nextAttemptAt: at,
        history: [],
        expiresAt,
      };
      const made = await deps.store.createDelivery(delivery);
      const unattempted = made.created || (made.existing.status === 'pending' && made.existing.attempts === 0);
      if (unattempted) await deps.queue.enqueue({ factoryId, destinationId: destination.destinationId, sk: delivery.sk, attempt: 1 }, 0);
    }),
  );
  if (deps.topic) {
    const { subject, message } = topicMessage(alert, body);
    await deps.topic.publish(subject, message);
  }
  await deps.store.markFannedOut(factoryId, alert.alertId, at);
  return recorded.created;
}

/** The alerts one issue write is due for, each sent on its way; the ids of those stored now. */
export async function notifyIssueChange(change: IssueChange, deps: NotifierDependencies, lookups: FactoryLookups): Promise<string[]> {
  if (!change.after) return [];
  const settings = await lookups.settings(change.after.factoryId);
  // The canary factory's one issue is the tally's pre-traffic probe (lib/pre-traffic-probes.ts), and the notifier's:
  // its alert takes the real path (stored once, its destinations read, marked sent) but never reaches the platform topic.
  const sending = isCanaryFactory(change.after.factoryId) ? { ...deps, topic: undefined } : deps;
  const stored: string[] = [];
  for (const alert of alertsOf(change.before && snapshotOf(change.before), snapshotOf(change.after), settings)) {
    if (await fanOut(alert, sending, lookups)) stored.push(alert.alertId);
  }
  return stored;
}
