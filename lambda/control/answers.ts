import type { AFFECTED_OPERATIONS, CompanyIssuesAnswer } from './affected-operations';
import type {
  AlertConfigureAnswer,
  AlertDeliveriesAnswer,
  AlertListAnswer,
  AlertRemoveAnswer,
  AlertSecretAnswer,
  AlertSettingsAnswer,
  AlertTestAnswer,
  AlertToggleAnswer,
  ALERT_OPERATIONS,
} from './alert-operations';
import type {
  CompanyListAnswer,
  ContactClearAnswer,
  ContactEraseAnswer,
  ContactExportAnswer,
  ContactExportPersonAnswer,
  ContactListAnswer,
  ContactShowAnswer,
  CONTACT_OPERATIONS,
} from './contact-operations';
import type { BulkAnswer, ENRICHMENT_OPERATIONS, RefreshAnswer, UsageAnswer } from './enrichment-operations';
import type { FeedbackListAnswer, FEEDBACK_OPERATIONS } from './feedback-operations';
import type { IssueListAnswer, IssueShowAnswer, IssueStatusAnswer, ISSUE_OPERATIONS } from './issue-operations';
import type { KeyCreateAnswer, KeyListAnswer, KeyRevokeAnswer, KEY_OPERATIONS } from './key-operations';
import type { ReleaseListAnswer, ReleaseShowAnswer, RELEASE_OPERATIONS } from './release-operations';
import type { EventAnswer, EventListAnswer, FeatureRequestAnswer, FeatureRequestListAnswer, REPORT_OPERATIONS } from './report-operations';

/**
 * What each control-room operation answers with status 200, by its name:
 * the JSON object its run returns, typed where the operation is defined
 * (each group's file exports its answer types). Callers that read answers
 * (the control room's pages) take them from here instead of untyped JSON.
 */
export interface ControlAnswers {
  'contacts.list': ContactListAnswer;
  'contacts.show': ContactShowAnswer;
  'contacts.export': ContactExportAnswer;
  'contacts.clear': ContactClearAnswer;
  'contacts.erase': ContactEraseAnswer;
  'contacts.export-person': ContactExportPersonAnswer;
  'companies.list': CompanyListAnswer;
  'companies.contacts': ContactListAnswer;
  'companies.issues': CompanyIssuesAnswer;
  'enrichment.refresh': RefreshAnswer;
  'enrichment.bulk': BulkAnswer;
  'enrichment.usage': UsageAnswer;
  'issues.list': IssueListAnswer;
  'issues.show': IssueShowAnswer;
  'issues.resolve': IssueStatusAnswer;
  'issues.ignore': IssueStatusAnswer;
  'issues.reopen': IssueStatusAnswer;
  'keys.list': KeyListAnswer;
  'keys.create': KeyCreateAnswer;
  'keys.revoke': KeyRevokeAnswer;
  'reports.events': EventListAnswer;
  'reports.feature-requests': FeatureRequestListAnswer;
  'reports.event': EventAnswer;
  'reports.feature-request': FeatureRequestAnswer;
  'releases.list': ReleaseListAnswer;
  'releases.show': ReleaseShowAnswer;
  'feedback.list': FeedbackListAnswer;
  'alerts.list': AlertListAnswer;
  'alerts.add': AlertSecretAnswer;
  'alerts.remove': AlertRemoveAnswer;
  'alerts.rotate': AlertSecretAnswer;
  'alerts.disable': AlertToggleAnswer;
  'alerts.enable': AlertToggleAnswer;
  'alerts.test': AlertTestAnswer;
  'alerts.deliveries': AlertDeliveriesAnswer;
  'alerts.settings': AlertSettingsAnswer;
  'alerts.configure': AlertConfigureAnswer;
}

export type OperationName = keyof ControlAnswers;

/** The names of the operation tables merged in ./operations.ts. */
type TableNames =
  | keyof typeof CONTACT_OPERATIONS
  | keyof typeof ENRICHMENT_OPERATIONS
  | keyof typeof ISSUE_OPERATIONS
  | keyof typeof KEY_OPERATIONS
  | keyof typeof REPORT_OPERATIONS
  | keyof typeof RELEASE_OPERATIONS
  | keyof typeof FEEDBACK_OPERATIONS
  | keyof typeof ALERT_OPERATIONS
  | keyof typeof AFFECTED_OPERATIONS;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Compiles only while ControlAnswers names every operation of the tables, and nothing else: a new operation needs its answer type. */
export type EveryOperationAnswered = Holds<Same<OperationName, TableNames>>;
