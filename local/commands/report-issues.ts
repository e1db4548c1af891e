/**
 * The issue subcommands of `reports` (docs/report-issues.md):
 *   issues --factory F [--status open|resolved|ignored] [--sort lastSeen|events|visitors] [--search TEXT] [--limit N] [--cursor C]
 *   issue --factory F --issue iss_… [--limit N]
 *   resolve | ignore | reopen --factory F --issue iss_…
 * Each is a control-room operation: in this process on the local store, or
 * with --stack/--url through the deployed control-room function (SigV4, the
 * caller's IAM principal in the audit line), exactly as `control` does.
 */
import { ISSUE_EVENTS_MAX, ISSUES_MAX } from '../../lambda/control/issue-operations';
import { ISSUE_STATUSES } from '../../lambda/issues/issue';
import { ISSUE_SORTS, ISSUES_SCAN_MAX } from '../../lambda/issues/issue-list';
import { factoryIdArg, positiveIntArg, printJson, UsageError } from '../cli';
import { checkedCall, connectControl, type ControlCall } from '../control/client';

export const ISSUE_KINDS = ['issues', 'issue', 'resolve', 'ignore', 'reopen'] as const;
export type IssueKind = (typeof ISSUE_KINDS)[number];

export const ISSUE_USAGE = `  issues --factory <fac_id> [--status ${ISSUE_STATUSES.join('|')}] [--sort ${ISSUE_SORTS.join('|')}]
         [--search <text>] [--limit <N>] [--cursor <cursor>]
                                        the factory's issues (events grouped by fingerprint), most
                                        recently seen first (or most events, most visitors; a search
                                        matches titles), one JSON object per line (default 100, at most
                                        ${ISSUES_MAX}); the next page's --cursor on stderr. A sort other than
                                        lastSeen or a search reads the ${ISSUES_SCAN_MAX} most recently seen issues at most
  issue --factory <fac_id> --issue <iss_id> [--limit <N>] [--minified]
                                        one issue and its latest N events (default 10, at most ${ISSUE_EVENTS_MAX}),
                                        their frames as the source maps resolve them (--minified: with each
                                        resolved frame's minified one too)
  resolve|ignore|reopen --factory <fac_id> --issue <iss_id>
                                        changes an issue's status; a resolved issue reopens by itself
                                        when a new event comes (a regression)`;

export interface IssueValues {
  factory?: string;
  issue?: string;
  status?: string;
  sort?: string;
  search?: string;
  cursor?: string;
  limit?: string;
  since?: string;
  type?: string;
  stack?: string;
  region?: string;
  url?: string;
  /** issue: each resolved frame with its minified frame too. */
  minified?: boolean;
}

const OPERATION: Record<IssueKind, string> = {
  issues: 'issues.list',
  issue: 'issues.show',
  resolve: 'issues.resolve',
  ignore: 'issues.ignore',
  reopen: 'issues.reopen',
};

/** The request of a subcommand, checked as the function checks it: a bad one is a usage error before anything connects. */
function requestOf(kind: IssueKind, values: IssueValues): ControlCall {
  if (values.since !== undefined || values.type !== undefined) throw new UsageError(`${kind} does not take --${values.since !== undefined ? 'since' : 'type'}`);
  const factoryId = factoryIdArg(values.factory);
  const request: ControlCall = { operation: OPERATION[kind], factoryId };
  if (kind === 'issues') {
    if (values.issue !== undefined) throw new UsageError('issues does not take --issue: use `reports -- issue --factory … --issue …` for one issue');
    if (values.status !== undefined) {
      if (!(ISSUE_STATUSES as readonly string[]).includes(values.status)) throw new UsageError(`--status must be one of ${ISSUE_STATUSES.join(', ')}, got "${values.status}"`);
      request.status = values.status;
    }
    if (values.sort !== undefined) {
      if (!(ISSUE_SORTS as readonly string[]).includes(values.sort)) throw new UsageError(`--sort must be one of ${ISSUE_SORTS.join(', ')}, got "${values.sort}"`);
      request.sort = values.sort;
    }
    if (values.search !== undefined) request.search = values.search;
    if (values.cursor !== undefined) request.cursor = values.cursor;
  } else {
    for (const name of ['status', 'sort', 'search', 'cursor'] as const) if (values[name] !== undefined) throw new UsageError(`${kind} does not take --${name}`);
    if (values.issue === undefined) throw new UsageError('--issue <iss_id> is required (the issueId `reports -- issues` prints)');
    request.issueId = values.issue;
  }
  if (values.minified && kind !== 'issue') throw new UsageError(`${kind} does not take --minified`);
  if (values.limit !== undefined) {
    if (kind !== 'issues' && kind !== 'issue') throw new UsageError(`${kind} does not take --limit`);
    request.limit = positiveIntArg('--limit', values.limit, kind === 'issues' ? ISSUES_MAX : ISSUE_EVENTS_MAX);
  }
  return checkedCall(request, (message) => message.replace(/^issueId/, '--issue'));
}

/** The answer with each resolved frame's minified frame left out (an unresolved frame is its minified frame, kept). */
function withoutMinified(answer: Record<string, unknown>): Record<string, unknown> {
  const events = Array.isArray(answer.events) ? (answer.events as Record<string, unknown>[]) : [];
  return {
    ...answer,
    events: events.map((event) =>
      Array.isArray(event.frames)
        ? { ...event, frames: (event.frames as Record<string, unknown>[]).map(({ minified, ...frame }) => (frame.source === undefined ? { ...frame, minified } : frame)) }
        : event,
    ),
  };
}

const line = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

export async function runIssueCommand(kind: IssueKind, values: IssueValues): Promise<void> {
  const request = requestOf(kind, values);
  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  try {
    const answer = await client.call(request);
    if (kind === 'issues') {
      for (const issue of answer.issues as unknown[]) line(issue);
      if (answer.complete === false) process.stderr.write(`sorted among the ${String(answer.scanned)} most recently seen issues only (the factory has more)\n`);
      if (typeof answer.cursor === 'string') process.stderr.write(`more: the next page with --cursor ${answer.cursor}\n`);
      const filtered = Object.entries((answer.filtered ?? {}) as Record<string, number>).filter(([, count]) => count > 0);
      if (filtered.length > 0) process.stderr.write(`filtered, counted apart (no issue): ${filtered.map(([reason, count]) => `${reason} ${count}`).join(', ')}\n`);
    } else if (kind === 'issue') {
      printJson(values.minified ? answer : withoutMinified(answer));
    } else {
      line({ ...(answer.issue as Record<string, unknown>), previousStatus: answer.previousStatus });
    }
  } finally {
    await client.close();
  }
}
