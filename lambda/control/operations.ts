import { AFFECTED_OPERATIONS } from './affected-operations';
import { ALERT_OPERATIONS } from './alert-operations';
import { CONTACT_OPERATIONS } from './contact-operations';
import { ENRICHMENT_OPERATIONS } from './enrichment-operations';
import { FEEDBACK_OPERATIONS } from './feedback-operations';
import { ISSUE_OPERATIONS } from './issue-operations';
import { KEY_OPERATIONS } from './key-operations';
import type { ControlOperation } from './operation';
import { RELEASE_OPERATIONS } from './release-operations';
import { REPORT_OPERATIONS } from './report-operations';

/**
 * Every operation of the control room, by name: the groups' tables merged.
 * A new operation is one entry in its group's table (with its store port
 * and its test); a new group is one table more here.
 */
export const CONTROL_OPERATIONS: ReadonlyMap<string, ControlOperation> = new Map(
  Object.entries({
    ...CONTACT_OPERATIONS,
    ...ENRICHMENT_OPERATIONS,
    ...ISSUE_OPERATIONS,
    ...KEY_OPERATIONS,
    ...REPORT_OPERATIONS,
    ...RELEASE_OPERATIONS,
    ...FEEDBACK_OPERATIONS,
    ...ALERT_OPERATIONS,
    ...AFFECTED_OPERATIONS,
  }),
);

export const OPERATION_NAMES: readonly string[] = [...CONTROL_OPERATIONS.keys()];
