/**
 * What the ingest API stored, for the control room:
 *   npm run --silent reports -- events --factory fac_… [--since <ISO>] [--type <type>] [--limit <N>]
 *   npm run --silent reports -- feature-requests --factory fac_… [--since <ISO>] [--limit <N>]
 *   npm run --silent reports -- issues | issue | resolve | ignore | reopen …  (./report-issues.ts)
 *   npm run --silent reports -- releases | release …  (./report-releases.ts)
 *   npm run --silent reports -- feedback --factory fac_… [--limit <N>] [--cursor <C>]  (./report-feedback.ts)
 * One JSON object per line, newest first, read page by page from DynamoDB
 * (the factory's feed in the reports table's byFeed index, nothing else).
 * With no flags it works on the same store as `npm start`; add
 * --stack <name> [--region <region>] for a deployed stack.
 */
import { EVENT_TYPES } from '../../../lambda/ingest/issues/stored-event';
import { readReports } from '../../../lambda/infrastructure/store/reports/report-reader';
import type { ReportKind } from '../../../lambda/ingest/issues/stored-event';
import { COMMON_OPTIONS, factoryIdArg, parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../harness/cli';
import { connectStore } from '../../harness/store';
import { ISSUE_KINDS, ISSUE_OPTIONS, ISSUE_USAGE, runIssueCommand, type IssueKind } from './report-issues';
import { RELEASE_KINDS, RELEASE_OPTIONS, RELEASE_USAGE, runReleaseCommand, type ReleaseKind } from './report-releases';
import { FEEDBACK_KINDS, FEEDBACK_OPTIONS, FEEDBACK_USAGE, runFeedbackCommand } from './report-feedback';

const USAGE = `usage: npm run --silent reports -- <kind> --factory <fac_id> [options]

  events --factory <fac_id>             bug reports and error events the ingest API stored
  feature-requests --factory <fac_id>   feature requests the ingest API stored
${ISSUE_USAGE}
${RELEASE_USAGE}
${FEEDBACK_USAGE}

Events and feature requests: one JSON object per line, newest first (by the time the server received it).

options:
  --since <ISO time>    only those received at or after it (2026-11-24 or 2026-11-24T10:00:00Z)
  --type <type>         events only: ${EVENT_TYPES.join(', ')}
  --limit <N>           at most N
  --stack <name> [--region <region>]   read a deployed stack's table instead of the local store
                                       (issue commands: its control-room function, signed with your AWS credentials)
  --url <function url>                 issue commands: the control-room function URL itself`;

const KINDS: readonly ReportKind[] = ['events', 'feature-requests'];

/** An ISO 8601 date or time, as the UTC instant the index sorts by. */
function sinceArg(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new UsageError(`--since must be an ISO 8601 date or time like 2026-11-24T10:00:00Z, got "${value}"`);
  return new Date(ms).toISOString();
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    ...ISSUE_OPTIONS,
    ...RELEASE_OPTIONS,
    ...FEEDBACK_OPTIONS,
    factory: { type: 'string' },
    since: { type: 'string' },
    type: { type: 'string' },
    limit: { type: 'string' },
    url: { type: 'string' },
    minified: { type: 'boolean' },
    ...COMMON_OPTIONS,
  });
  const [kind, extra] = positionals;
  const kinds = [...KINDS, ...ISSUE_KINDS, ...RELEASE_KINDS, ...FEEDBACK_KINDS].join(', ');
  if (kind === undefined) throw new UsageError(`say what to read: ${kinds}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if ((ISSUE_KINDS as readonly string[]).includes(kind)) return runIssueCommand(kind as IssueKind, values);
  if ((RELEASE_KINDS as readonly string[]).includes(kind)) return runReleaseCommand(kind as ReleaseKind, values);
  if ((FEEDBACK_KINDS as readonly string[]).includes(kind)) return runFeedbackCommand(values);
  if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`unknown kind "${kind}": use ${kinds}`);
  // The issue subcommands' flags and --url are not the stored reports' (these read the table itself).
  const given: Record<string, unknown> = values;
  const own = new Set(['factory', 'since', 'type', 'limit', 'stack', 'region']);
  for (const name of Object.keys(given)) if (!own.has(name) && given[name] !== undefined) throw new UsageError(`${kind} does not take --${name}`);
  const factoryId = factoryIdArg(values.factory);
  const since = sinceArg(values.since);
  const limit = positiveIntArg('--limit', values.limit, 1_000_000);
  if (values.type !== undefined) {
    if (kind !== 'events') throw new UsageError('--type is for events only');
    if (!(EVENT_TYPES as readonly string[]).includes(values.type)) {
      throw new UsageError(`--type must be one of ${EVENT_TYPES.join(', ')}, got "${values.type}"`);
    }
  }

  const store = await connectStore({ stack: values.stack, region: values.region }, ['reports']);
  try {
    for await (const report of readReports(store.doc, store.tables.reports, factoryId, kind as ReportKind, { since, type: values.type, limit })) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
    }
  } finally {
    await store.close();
  }
});
