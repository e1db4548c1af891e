import { snapshotOf, type Alert, type AlertType } from './alert';
import type { Issue } from '../ingest/issues/issue';
import { alertPayload, releaseAlertPayload, type ReleaseAlert } from './payload';
import { recoveredAlertId, releaseTransitionOf, type ReleaseHourSnapshot, type ReleaseTransition } from './release-triggers';
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

/**
 * One write of an issue, or of a release hour's counters, as its stream record shows it (the store reads it:
 * lambda/infrastructure/store/reports/stream-images.ts).
 */
export interface IssueChange {
  before?: Issue;
  after?: Issue;
  /** `at`: when the write was made, as the stream record says (the alert's time; the hour's start when it says nothing). */
  releaseHour?: { before?: ReleaseHourSnapshot; after?: ReleaseHourSnapshot; at?: string };
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

const receives = (destination: Destination, type: AlertType) =>
  destination.disabled === undefined && (destination.types.length === 0 || destination.types.includes(type));

const WHAT: Record<AlertType, string> = {
  'issue.created': 'New issue',
  'issue.regressed': 'Regression',
  'issue.spiking': 'Spike',
  'issue.resolved': 'Resolved',
  'release.unhealthy': 'Unhealthy release',
  'release.recovered': 'Recovered release',
};

/** What any alert is, for its stored item, its deliveries and the platform topic: who it is of, and how its body is made. */
interface Outgoing {
  factoryId: string;
  alertId: string;
  type: AlertType;
  occurredAt: string;
  /** What the deliveries name: the issue, or the release and its environment. */
  about: { issueId: string } | { release: string; environment: string };
  /** The body and the platform topic's subject, made once when the alert is first sent. */
  prepare: (nowMs: number) => Promise<{ body: string; subject: string }>;
}

/** An issue alert as one to send: its body holds who it is about (read once, when first sent). */
function issueOutgoing(found: Alert, deps: NotifierDependencies): Outgoing {
  const { factoryId, issueId } = found.issue;
  return {
    factoryId,
    alertId: found.alertId,
    type: found.type,
    occurredAt: found.occurredAt,
    about: { issueId },
    prepare: async (nowMs) => {
      const alert = await withPeople(found, deps, nowMs);
      return { body: alertPayload(alert, deps.linkBase), subject: `${WHAT[alert.type]} in ${factoryId}: ${scrubbedTitle(alert.issue.title)}` };
    },
  };
}

function releaseOutgoing(alert: ReleaseAlert, deps: NotifierDependencies): Outgoing {
  const { factoryId, release, environment } = alert.health;
  return {
    factoryId,
    alertId: alert.alertId,
    type: alert.type,
    occurredAt: alert.occurredAt,
    about: { release, environment },
    prepare: async () => ({
      body: releaseAlertPayload(alert, deps.linkBase),
      subject: `${WHAT[alert.type]} in ${factoryId}: ${release} (${environment})`,
    }),
  };
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
  return send(issueOutgoing(found, deps), deps, lookups);
}

async function send(alert: Outgoing, deps: NotifierDependencies, lookups: FactoryLookups): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  const at = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + ALERT_RETENTION_DAYS * 86_400;
  const { factoryId, about } = alert;
  const recorded = await deps.store.recordAlert({ factoryId, alertId: alert.alertId, type: alert.type, ...about, occurredAt: alert.occurredAt, at, expiresAt });
  if (recorded.fannedOut) return false;
  const { body, subject } = await alert.prepare(now.getTime());
  const webhookId = webhookIdOf(alert.alertId);
  const destinations = (await lookups.destinations(factoryId)).filter((destination) => receives(destination, alert.type));
  await Promise.all(
    destinations.map(async (destination) => {
      const delivery: Delivery = {
        factoryId,
        destinationId: destination.destinationId,
        sk: `${alert.occurredAt}#${alert.alertId}`,
        alertId: alert.alertId,
        webhookId,
        type: alert.type,
        ...about,
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
  if (deps.topic) await deps.topic.publish(subject.slice(0, 99), body);
  await deps.store.markFannedOut(factoryId, alert.alertId, at);
  return recorded.created;
}

/**
 * A release hour's change of health sent on its way (docs/alerts.md#release-alerts): crossing into unhealthy opens
 * the release's spell (if none is open) and sends the hour's release.unhealthy, once per release and hour by its id;
 * crossing into healthy closes an open spell and sends its release.recovered, once per spell. The spell is opened
 * before the alert is sent and the recovery kept as `closing` until it is, so a record retried after a stop in
 * between finishes what the first run began. The ids of the alerts stored now.
 */
async function notifyReleaseTransition(
  transition: ReleaseTransition,
  at: string | undefined,
  deps: NotifierDependencies,
  lookups: FactoryLookups,
): Promise<string[]> {
  const { facts, spellKey } = transition;
  const occurredAt = at ?? facts.hourStart;
  const hour = Date.parse(facts.hourStart) / 3_600_000;
  const sending = isCanaryFactory(facts.factoryId) ? { ...deps, topic: undefined } : deps;
  if (transition.kind === 'unhealthy') {
    const expiresAt = Math.floor((deps.now?.() ?? new Date()).getTime() / 1000) + ALERT_RETENTION_DAYS * 86_400;
    await deps.store.openSpell(facts.factoryId, spellKey, hour, expiresAt);
    const alert: ReleaseAlert = { alertId: transition.alertId, type: 'release.unhealthy', occurredAt, health: facts };
    return (await send(releaseOutgoing(alert, sending), sending, lookups)) ? [alert.alertId] : [];
  }
  const spellHour = await deps.store.closeSpell(facts.factoryId, spellKey, hour);
  if (spellHour === undefined) return [];
  const alert: ReleaseAlert = { alertId: recoveredAlertId(spellKey, spellHour), type: 'release.recovered', occurredAt, health: facts };
  const stored = await send(releaseOutgoing(alert, sending), sending, lookups);
  await deps.store.spellClosed(facts.factoryId, spellKey, spellHour);
  return stored ? [alert.alertId] : [];
}

/** The alerts one issue write (or release hour write) is due for, each sent on its way; the ids of those stored now. */
export async function notifyIssueChange(change: IssueChange, deps: NotifierDependencies, lookups: FactoryLookups): Promise<string[]> {
  const hour = change.releaseHour;
  if (hour?.after) {
    const settings = await lookups.settings(hour.after.factoryId);
    const transition = releaseTransitionOf(hour.before, hour.after, settings, (deps.now?.() ?? new Date()).getTime());
    return transition ? notifyReleaseTransition(transition, hour.at, deps, lookups) : [];
  }
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
