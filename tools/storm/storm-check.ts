/**
 * What the storm benchmark verifies once the storm is over
 * (docs/capacity.md#the-storm-benchmark), from the items themselves: every
 * acknowledged event stored (none lost after its 2xx), each issue's count
 * equal to the events stored in it, each bug in one issue, and, for events
 * with source maps, their frames resolved to the original functions. Pure:
 * the bench scans, this judges.
 */

/** A stored event (only what is judged). */
export interface ScannedEvent {
  eventId: string;
  /**
   * The issue the tally counted it into: the issue its first grouping hash is tied to (an event's item names
   * the issue the ingest API filed it under, from its frames as sent; the tally may count it into the issue of
   * its resolved frames: lambda/ingest/tally/issue-of-event.ts). The bench replays that from the alias items.
   */
  issue?: string;
  frames?: { file: string; original?: { fn?: string; source: string }; unresolved?: string }[];
}

/** An issue item as scanned: its key names the issue. */
export interface ScannedIssue {
  pk: string;
  count?: number;
}

export interface BugCheck {
  /** Events the SDK had acknowledged (2xx). */
  acknowledged: number;
  /** Of those, stored: must equal acknowledged. */
  acknowledgedStored: number;
  /** Stored events of the bug, acknowledged or not (a request stored then answered 429, or an answer lost). */
  stored: number;
  /** The issues its stored events are in: one for one bug. */
  issues: string[];
}

export interface FrameCheck {
  /** Stored events whose frames are judged (the bug's with maps). */
  events: number;
  /** Of those, events whose every frame in the app's scripts has an original position. */
  resolved: number;
  /** Frames of the app's scripts left unresolved, by reason. */
  unresolved: Record<string, number>;
  /** The top frame's original function, by name (events count). */
  topFunctions: Record<string, number>;
}

export interface StormCheck {
  stored: number;
  counted: number;
  /** Acknowledged events that are not stored: must be 0. */
  lostAfterAcknowledgment: number;
  issues: { issueId: string; count: number; stored: number }[];
  /** Every issue's count equals the events stored in it (and no stored event lacks an issue). */
  exact: boolean;
  bugs: Record<string, BugCheck>;
  frames?: FrameCheck;
}

const issueIdOfKey = (pk: string): string => pk.slice(pk.lastIndexOf('#') + 1);

/**
 * Judges the stored items against what was sent: `sent` and `acknowledged`
 * name each bug's event ids; `mappedBug` is the bug whose frames should
 * resolve, in scripts whose URL starts with `appPrefix`.
 */
export function checkStorm(input: {
  events: readonly ScannedEvent[];
  issues: readonly ScannedIssue[];
  sent: ReadonlyMap<string, ReadonlySet<string>>;
  acknowledged: ReadonlyMap<string, ReadonlySet<string>>;
  mapped?: { bug: string; appPrefix: string };
}): StormCheck {
  const byId = new Map(input.events.map((event) => [event.eventId, event]));
  const storedPerIssue = new Map<string, number>();
  let withoutIssue = 0;
  for (const event of input.events) {
    const issue = event.issue;
    if (issue === undefined) withoutIssue += 1;
    else storedPerIssue.set(issue, (storedPerIssue.get(issue) ?? 0) + 1);
  }
  const issues = input.issues.map((item) => {
    const issueId = issueIdOfKey(item.pk);
    return { issueId, count: Number(item.count ?? 0), stored: storedPerIssue.get(issueId) ?? 0 };
  });
  const known = new Set(issues.map((issue) => issue.issueId));
  const orphans = [...storedPerIssue.keys()].filter((issue) => !known.has(issue)).length;
  const exact = withoutIssue === 0 && orphans === 0 && issues.every((issue) => issue.count === issue.stored);

  const bugs: Record<string, BugCheck> = {};
  let lostAfterAcknowledgment = 0;
  for (const [bug, ids] of input.sent) {
    const acknowledged = input.acknowledged.get(bug) ?? new Set<string>();
    let acknowledgedStored = 0;
    for (const id of acknowledged) if (byId.has(id)) acknowledgedStored += 1;
    lostAfterAcknowledgment += acknowledged.size - acknowledgedStored;
    const stored = [...ids].flatMap((id) => byId.get(id) ?? []);
    const bugIssues = [...new Set(stored.flatMap((event) => event.issue ?? []))].sort();
    bugs[bug] = { acknowledged: acknowledged.size, acknowledgedStored, stored: stored.length, issues: bugIssues };
  }

  let frames: FrameCheck | undefined;
  if (input.mapped) {
    const { bug, appPrefix } = input.mapped;
    frames = { events: 0, resolved: 0, unresolved: {}, topFunctions: {} };
    for (const id of input.sent.get(bug) ?? []) {
      const event = byId.get(id);
      if (!event) continue;
      frames.events += 1;
      const appFrames = (event.frames ?? []).filter((frame) => frame.file.startsWith(appPrefix));
      for (const frame of appFrames)
        if (!frame.original) frames.unresolved[frame.unresolved ?? 'none given'] = (frames.unresolved[frame.unresolved ?? 'none given'] ?? 0) + 1;
      if (appFrames.length > 0 && appFrames.every((frame) => frame.original)) frames.resolved += 1;
      const top = appFrames[0]?.original?.fn ?? '(unresolved)';
      frames.topFunctions[top] = (frames.topFunctions[top] ?? 0) + 1;
    }
  }
  return {
    stored: input.events.length,
    counted: issues.reduce((sum, issue) => sum + issue.count, 0),
    lostAfterAcknowledgment,
    issues,
    exact,
    bugs,
    ...(frames ? { frames } : {}),
  };
}
