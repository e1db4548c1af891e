/**
 * The issue subcommands of `reports` (docs/report-issues.md):
 *   issues --factory F [--status open|resolved|ignored] [--sort lastSeen|events|visitors] [--search TEXT] [--limit N] [--cursor C]
 *   issue --factory F --issue iss_… [--limit N]
 *   resolve | ignore | reopen --factory F --issue iss_…
 * Each is a control-room operation whose request fields are its flags and
 * write its usage line (local/console/control/command-line.ts): in this process on
 * the local store, or with --stack/--url through the deployed control-room
 * function (SigV4, the caller's IAM principal in the audit line), exactly
 * as `control` does.
 */
import { ISSUE_EVENTS_MAX, ISSUES_MAX, type IssueListAnswer } from '../../../lambda/control/issue-operations';
import type { ControlOperation } from '../../../lambda/control/operation';
import { CONTROL_OPERATIONS } from '../../../lambda/control/operations';
import { ISSUES_SCAN_MAX } from '../../../lambda/ingest/issues/issue-list';
import { printJson } from '../../harness/cli';
import { checkedCall, connectControl, type ControlCall } from '../control/client';
import { fieldOptions, inFlagWords, requestFromFlags, usageLine, type CommandShape, type TableCommand } from '../control/command-line';

export const ISSUE_KINDS = ['issues', 'issue', 'resolve', 'ignore', 'reopen'] as const;
export type IssueKind = (typeof ISSUE_KINDS)[number];

/** Each subcommand's operation, its request fields as flags. */
const COMMANDS: Record<IssueKind, TableCommand> = Object.fromEntries(
  (
    [
      ['issues', 'issues.list'],
      ['issue', 'issues.show'],
      ['resolve', 'issues.resolve'],
      ['ignore', 'issues.ignore'],
      ['reopen', 'issues.reopen'],
    ] as const
  ).map(([words, operation]) => [words, { words, operation, fields: (CONTROL_OPERATIONS.get(operation) as ControlOperation).fields }]),
) as Record<IssueKind, TableCommand>;

/** A required flag left out, in the words the `reports` command has always used. */
const SHAPE: CommandShape = { missing: (_words, flag) => `${flag} is required` };

/** The flags of every issue subcommand, for the `reports` command's parser. */
export const ISSUE_OPTIONS = fieldOptions(Object.values(COMMANDS));

const usage = (kind: IssueKind) => usageLine(COMMANDS[kind], SHAPE);

export const ISSUE_USAGE = `  ${usage('issues')}
                                        the factory's issues (events grouped by fingerprint), most
                                        recently seen first (or most events, most visitors; a search
                                        matches titles), one JSON object per line (default 100, at most
                                        ${ISSUES_MAX}); the next page's --cursor on stderr. A sort other than
                                        lastSeen or a search reads the ${ISSUES_SCAN_MAX} most recently seen issues at most
  ${usage('issue')} [--minified]
                                        one issue and its latest N events (default 10, at most ${ISSUE_EVENTS_MAX}),
                                        their frames as the source maps resolve them (--minified: with each
                                        resolved frame's minified one too)
  ${usage('resolve').replace(/^resolve/, 'resolve|ignore|reopen')}
                                        changes an issue's status; a resolved issue reopens by itself
                                        when a new event comes (a regression)`;

/** What the `reports` command parsed: the issue flags, its own, and where it runs. */
export type IssueValues = Record<string, unknown> & { stack?: string; region?: string; url?: string; minified?: boolean };

/** Where a subcommand runs: every one takes these. */
const WHERE = ['stack', 'region', 'url'];

/** The request of a subcommand, checked as the function checks it: a bad one is a usage error before anything connects. */
function requestOf(kind: IssueKind, values: IssueValues): ControlCall {
  const command = COMMANDS[kind];
  // --minified is how `issue` prints its answer, not a field of the request.
  const where = kind === 'issue' ? [...WHERE, 'minified'] : WHERE;
  return checkedCall(requestFromFlags(command, SHAPE, values, where), inFlagWords(command));
}

/** The answer with each resolved frame's minified frame left out (an unresolved frame is its minified frame, kept). */
function withoutMinified(answer: Record<string, unknown>): Record<string, unknown> {
  const events = Array.isArray(answer.events) ? (answer.events as Record<string, unknown>[]) : [];
  return {
    ...answer,
    events: events.map((event) =>
      Array.isArray(event.frames)
        ? {
            ...event,
            frames: (event.frames as Record<string, unknown>[]).map(({ minified, ...frame }) => (frame.source === undefined ? { ...frame, minified } : frame)),
          }
        : event,
    ),
  };
}

const line = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** Events the tally could not count (docs/report-issues.md#events-set-aside), as one line for stderr; none when there are none. */
function setAsideLine(setAside: IssueListAnswer['setAside'] | undefined): string | undefined {
  const counts = Object.entries(setAside?.counts ?? {}).filter(([, count]) => typeof count === 'number' && count > 0);
  if (counts.length === 0) return undefined;
  const last = setAside?.last;
  const latest = last
    ? `; the latest: event ${last.eventId} (${last.reason}${last.detail ? `: ${last.detail}` : ''}), shown on its page in the control room`
    : '';
  return `set aside, not counted (the tally could not read or count them): ${counts.map(([reason, count]) => `${reason} ${count}`).join(', ')}${latest}\n`;
}

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
      if (filtered.length > 0)
        process.stderr.write(`filtered, counted apart (no issue): ${filtered.map(([reason, count]) => `${reason} ${count}`).join(', ')}\n`);
      const aside = setAsideLine(answer.setAside as IssueListAnswer['setAside'] | undefined);
      if (aside) process.stderr.write(aside);
    } else if (kind === 'issue') {
      printJson(values.minified ? answer : withoutMinified(answer));
    } else {
      line({ ...(answer.issue as Record<string, unknown>), previousStatus: answer.previousStatus });
    }
  } finally {
    await client.close();
  }
}
