import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { ArnPrincipal } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CONTROL_ROOM_SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { SUPPRESSION_PREFIX } from '../lambda/contacts/domain/vendor-suppression';
import {
  CONTACTS_BY_COMPANY,
  KEYS_BY_FACTORY,
  KEYS_BY_KEY_ID,
  REPORTS_BY_FEED,
  REPORTS_BY_ISSUE,
  REPORTS_BY_PERSON,
  FEEDBACK_KEY_PREFIX,
  FEEDBACK_LINK_PREFIX,
  PERSON_PAIR_PREFIX,
  COMPANY_PAIR_PREFIX,
} from '../lambda/infrastructure/store/schema';
import { grantIndexCalls, grantTableCalls, grantTableCallsOnKeys } from './grants';
import type { GradualDeployment } from './gradual-deployment';
import { controlRoomProbes } from './pre-traffic-probes';
import { releasedFunction, type ReleaseSettings } from './released-function';
import type { ServiceFunction } from './service-function';

export interface ControlRoomProps {
  contactsTable: Table;
  referenceTable: Table;
  /** For the keys.* operations. */
  keysTable: Table;
  /** The ingest API's reports: the reports.* operations read them, the issues.* operations read and change bug-report issues. */
  reportsTable: Table;
  /** Issue alerts' destinations, deliveries and settings: the alerts.* operations. */
  alertsTable: Table;
  /** Where alert payload links point ("send a test" builds one). */
  alertLinkBase: string;
  /** Requests per minute of a key created with keys.create and no rateLimit. */
  defaultRateLimit: number;
  /** `enrichment.provider` on every enriched contact. */
  platformName: string;
  /** The control room's IAM role: the only principal granted the function URL. */
  controlRoomPrincipalArn?: string;
  release: ReleaseSettings;
}

/** Not on the request path, so the apiMemoryMb option leaves it alone. */
const CONTROL_ROOM_MEMORY_MB = 1024;

/**
 * Days the control room's log group (its audit lines) is kept at least, whatever logRetentionDays says: past the
 * 35 days a point-in-time restore reaches back, so that every erasure since the moment restored to can be found
 * and applied again (docs/runbook.md#after-a-restore-erase-again). A value CloudWatch Logs accepts.
 */
export const AUDIT_LOG_MIN_DAYS = 60;

/**
 * The internal control-room Lambda (the enrichment function grown into it):
 * lists, exports, clears, companies, and enrichment refresh/bulk/usage.
 * Reached only through its function URL with AWS_IAM auth, so every call
 * is SigV4-signed and the function sees the caller's ARN for its audit
 * line; never through API Gateway.
 */
export class ControlRoom extends Construct {
  readonly handler: ServiceFunction;
  /** How the function reaches traffic: its `live` alias, which the function URL invokes. */
  readonly deployment: GradualDeployment;
  readonly url: FunctionUrl;

  constructor(scope: Construct, id: string, props: ControlRoomProps) {
    super(scope, id);
    // Its audit lines outlive the tables' backups: an erasure a restore undoes can be found again in them.
    const logRetention = Math.max(props.release.logRetention, AUDIT_LOG_MIN_DAYS) as RetentionDays;
    ({ handler: this.handler, deployment: this.deployment } = releasedFunction(this, 'Handler', {
      settings: { ...props.release, logRetention },
      description: 'Contacts control room (internal): lists, exports, clears, companies, enrichment refresh and bulk runs, keys, reports, alerts',
      entry: 'control/control-room-entry.ts',
      // A bulk invocation stops taking pages a minute before this and returns a cursor.
      timeout: Duration.minutes(5),
      memorySize: CONTROL_ROOM_MEMORY_MB,
      environment: {
        CONTACTS_TABLE_NAME: props.contactsTable.tableName,
        REFERENCE_TABLE_NAME: props.referenceTable.tableName,
        KEYS_TABLE_NAME: props.keysTable.tableName,
        REPORTS_TABLE_NAME: props.reportsTable.tableName,
        ALERTS_TABLE_NAME: props.alertsTable.tableName,
        ALERT_LINK_BASE: props.alertLinkBase,
        DEFAULT_RATE_LIMIT: String(props.defaultRateLimit),
        PLATFORM_NAME: props.platformName,
      },
      service: CONTROL_ROOM_SERVICE_NAME,
      deploymentId: 'Deployment',
      release: {
        name: 'control-room',
        probes: controlRoomProbes,
        // Bulk runs take up to 4 minutes by design (they stop taking pages a minute before the timeout):
        // only a call that runs into the timeout is too slow.
        p99DurationMs: 280_000,
      },
    }));
    this.url = this.deployment.alias.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });

    // Least privilege, per operation: reads of contacts, companies, usage and markers (GetItem, Query);
    // the contacts of a company (Query on byCompany, then BatchGetItem); clears and enrichment passes
    // (UpdateItem; a pass's TransactWriteItems is authorized per item as UpdateItem); the reference dataset (GetItem).
    // An erasure deletes a contact and its pass markers (DeleteItem: docs/privacy.md#erasure).
    grantTableCalls(
      props.contactsTable,
      this.handler,
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
    );
    grantIndexCalls(props.contactsTable, CONTACTS_BY_COMPANY.indexName, this.handler, 'dynamodb:Query');
    grantTableCalls(props.referenceTable, this.handler, 'dynamodb:GetItem');
    // An erasure (docs/privacy.md#the-vendors-record) deletes the vendor's record of the email (DeleteItem) after
    // suppressing it: a PutItem allowed only on suppression items (`suppressed#…`), so the function adds no vendor record.
    // It never loads the dataset, so no ConditionCheckItem: that is the loader's, run with an operator's own permissions.
    grantTableCalls(props.referenceTable, this.handler, 'dynamodb:DeleteItem');
    grantTableCallsOnKeys(props.referenceTable, this.handler, `${SUPPRESSION_PREFIX}*`, 'dynamodb:PutItem');
    // keys.create (PutItem), the person and suppression secrets read once per container (UpdateItem), keys.list (Query on byFactory, then BatchGetItem), keys.revoke (Query on byKeyId, then UpdateItem).
    grantTableCalls(props.keysTable, this.handler, 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem');
    grantIndexCalls(props.keysTable, KEYS_BY_FACTORY.indexName, this.handler, 'dynamodb:Query');
    grantIndexCalls(props.keysTable, KEYS_BY_KEY_ID.indexName, this.handler, 'dynamodb:Query');
    // Reports (docs/report-issues.md): one report, one issue or the filtered counts (GetItem), an issue's status
    // change (UpdateItem), a list or an issue's events (Query on byFeed or byIssue, then BatchGetItem). Never a write of an event.
    grantTableCalls(props.reportsTable, this.handler, 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem');
    grantIndexCalls(props.reportsTable, REPORTS_BY_FEED.indexName, this.handler, 'dynamodb:Query');
    grantIndexCalls(props.reportsTable, REPORTS_BY_ISSUE.indexName, this.handler, 'dynamodb:Query');
    // A person's reports (erasure, export, a contact's page): Query on byPerson; forgetting a reporter is an UpdateItem.
    grantIndexCalls(props.reportsTable, REPORTS_BY_PERSON.indexName, this.handler, 'dynamodb:Query');
    // Erasing a person deletes their feedback and its issue link (docs/feedback.md#erasure): DeleteItem on those keys only, never an event.
    grantTableCallsOnKeys(props.reportsTable, this.handler, `${FEEDBACK_KEY_PREFIX}*`, 'dynamodb:DeleteItem');
    grantTableCallsOnKeys(props.reportsTable, this.handler, `${FEEDBACK_LINK_PREFIX}*`, 'dynamodb:DeleteItem');
    // And takes the person out of every issue they were counted in: their (issue, person) pairs, and a company's pair left with no one.
    for (const pairs of [PERSON_PAIR_PREFIX, COMPANY_PAIR_PREFIX]) grantTableCallsOnKeys(props.reportsTable, this.handler, `${pairs}*`, 'dynamodb:DeleteItem');

    // Alerts (docs/alerts.md#destinations): settings, destinations and the log (GetItem, Query), adding and removing a
    // destination (a transaction of PutItem or DeleteItem with the count's UpdateItem), changes (UpdateItem), a test's record (PutItem).
    grantTableCalls(props.alertsTable, this.handler, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem');

    // lambda:InvokeFunctionUrl (AWS_IAM) and lambda:InvokeFunction only via the URL: no direct Invoke, which would carry no caller.
    if (props.controlRoomPrincipalArn) this.deployment.alias.grantInvokeUrl(new ArnPrincipal(props.controlRoomPrincipalArn));
  }
}
