import * as z from 'zod/mini';
import { ISSUE_STATUSES } from '../issues/issue';
import { optionalWholeNumber } from './whole-number';

/**
 * The control room's issue operations (docs/report-issues.md), as request
 * shapes: merged into the others in ./request.ts.
 *   issues.list     {factoryId, status?, limit?}   most recently seen first
 *   issues.show     {factoryId, issueId, limit?}   the issue and its latest events
 *   issues.resolve | issues.ignore | issues.reopen {factoryId, issueId}
 */
export const ISSUES_DEFAULT = 100;
export const ISSUES_MAX = 1000;
export const ISSUE_EVENTS_DEFAULT = 10;
export const ISSUE_EVENTS_MAX = 100;

/** What each status operation sets. */
export const STATUS_OF = { 'issues.resolve': 'resolved', 'issues.ignore': 'ignored', 'issues.reopen': 'open' } as const;
export type StatusOperation = keyof typeof STATUS_OF;

const issueId = z.string({ error: 'issueId must be a string' }).check(
  z.regex(/^iss_[0-9a-f]{20}$/, { error: 'issueId must be an issue id: iss_ + 20 hex characters (from `reports issues`)' }),
);
const limit = (max: number) => optionalWholeNumber('limit', max);

export function issueOperations<F extends z.ZodMiniType<string>>(factoryId: F) {
  const statusChange = <N extends StatusOperation>(name: N) => z.strictObject({ operation: z.literal(name), factoryId, issueId });
  return {
    'issues.list': z.strictObject({
      operation: z.literal('issues.list'),
      factoryId,
      status: z.optional(z.enum(ISSUE_STATUSES, { error: `status must be one of ${ISSUE_STATUSES.join(', ')}` })),
      limit: limit(ISSUES_MAX),
    }),
    'issues.show': z.strictObject({ operation: z.literal('issues.show'), factoryId, issueId, limit: limit(ISSUE_EVENTS_MAX) }),
    'issues.resolve': statusChange('issues.resolve'),
    'issues.ignore': statusChange('issues.ignore'),
    'issues.reopen': statusChange('issues.reopen'),
  };
}

type Shapes = ReturnType<typeof issueOperations<z.ZodMiniType<string>>>;
type Parsed<K extends keyof Shapes> = z.output<Shapes[K]>;

/** An issue request with its defaults applied. */
export type IssueRequest =
  | (Omit<Parsed<'issues.list'>, 'limit'> & { limit: number })
  | (Omit<Parsed<'issues.show'>, 'limit'> & { limit: number })
  | Parsed<'issues.resolve'>
  | Parsed<'issues.ignore'>
  | Parsed<'issues.reopen'>;

export function withIssueDefaults(request: IssueRequest | Parsed<'issues.list'> | Parsed<'issues.show'>): IssueRequest {
  switch (request.operation) {
    case 'issues.list':
      return { ...request, limit: request.limit ?? ISSUES_DEFAULT };
    case 'issues.show':
      return { ...request, limit: request.limit ?? ISSUE_EVENTS_DEFAULT };
    default:
      return request;
  }
}
