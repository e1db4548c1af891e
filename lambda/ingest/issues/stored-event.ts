import { descending } from '../../kernel/descending';
import type { ResolvedFrame } from './resolved-frames';

/**
 * An event as the reports table keeps it: what the page sent (as validated
 * into an IngestEvent, lambda/ingest/payloads.ts) and what the server adds.
 * Here, beside the issue model, because the ingest API writes it, the tally counts it into its issue
 * and the control room reads it (docs/report-issues.md).
 */

/** The two kinds of report the ingest API stores, each a list the control room reads newest first. */
export type ReportKind = 'events' | 'feature-requests';

export const EVENT_TYPES = ['error', 'bug_report', 'message'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A validated event: what is stored, besides what the server adds. */
export interface IngestEvent {
  /** Lowercase: case never makes a second copy. */
  eventId: string;
  type: EventType;
  /** ISO 8601 UTC. */
  timestamp?: string;
  message?: string;
  exception?: { type?: string; value?: string; stack?: string };
  pageUrl?: string;
  release?: string;
  tags?: Record<string, string>;
  reporter?: { email?: string; name?: string };
  fingerprint?: string[];
  /**
   * The thrown exception's frames as its SDK sent them structured, top (where it was thrown) first: only
   * events of the Sentry protocol carry them (lambda/ingest/sentry/), and the grouping's frames-as-sent rule
   * reads them instead of the stack text. Not `frames` (StoredEvent): those are the stack's frames as the
   * source maps resolved them at ingest.
   */
  sdkFrames?: SdkFrame[];
  /** Script URL → debug id (lowercase UUID) of the scripts in its stack, as the browser SDK found them (docs/source-maps.md). */
  debugIds?: Record<string, string>;
  /** Values the scrubber replaced, per rule (lambda/ingest/scrub/rule.ts, ScrubCounts: docs/privacy.md#scrubbing); absent when none. */
  scrubbed?: Partial<Record<string, number>>;
}

/** One frame as an SDK sent it structured (the Sentry protocol's): its text cleaned, scrubbed and clipped like every other field. */
export interface SdkFrame {
  function?: string;
  module?: string;
  /** The file or script URL (Sentry's abs_path, else filename). */
  file?: string;
  line?: number;
  column?: number;
  contextLine?: string;
  /** The source lines just before and after `contextLine` (at most SDK_CONTEXT_LINES each), for the frames that may be the app's. */
  pre?: string[];
  post?: string[];
  /** As the SDK marked it; absent when it did not say. */
  inApp?: boolean;
}

/** Source lines kept before and after a structured frame's line: what the event page shows around it. */
export const SDK_CONTEXT_LINES = 3;
/** Frames (from the top) whose lines around are kept: those the SDK did not mark `in_app: false`. */
export const SDK_CONTEXT_FRAMES = 10;

/** An event's (or a feature request's) id as stored and listed: a lowercase UUID (the ingest API lowercases what it is sent). */
export const REPORT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Why an event opens no issue (lambda/ingest/grouping/fingerprint.ts): a browser extension's frames, or a cross-origin "Script error.". */
export type FilterReason = 'browser-extension' | 'script-error';
export const FILTER_REASONS: readonly FilterReason[] = ['browser-extension', 'script-error'];

/** Events newest first; one instant's by eventId, descending: the order of every event list, on every store (../../kernel/descending.ts). */
export const newestEventFirst = descending<Pick<StoredEvent, 'receivedAt' | 'eventId'>>(
  (event) => event.receivedAt,
  (event) => event.eventId,
);

/** What the server records with every report, besides the report itself. */
export interface ReceiptFields {
  factoryId: string;
  keyId: string;
  /** The website it came from (the request's normalized Origin). */
  origin: string;
  userAgent?: string;
  /** ISO 8601 UTC. */
  receivedAt: string;
  /** When DynamoDB's time to live removes it: epoch seconds. */
  expiresAt: number;
  /**
   * The visitor's hash for the day: the client's address and user agent
   * under a salt replaced daily (lambda/ingest/visitor-hash.ts), 8
   * characters; neither the address nor the salt is stored. Absent on
   * events stored before visitors were counted.
   */
  visitor?: string;
  /**
   * Unique per write: a store that finds its own token on the item it was
   * told exists knows its earlier attempt landed (an answer lost on the way),
   * so a retry is still counted as stored, not as a duplicate.
   */
  writeToken: string;
}

/** An event as stored: its fields as read (`fingerprint` is the one it sent), what the server records, and its issue. */
export interface StoredEvent extends ReceiptFields, IngestEvent {
  /** The issue it was grouped into; absent when it was filtered. */
  issueId?: string;
  /** Why it opens no issue (browser extension, cross-origin "Script error."), when it does not. */
  filtered?: FilterReason;
  /**
   * Its stack's frames as the source maps resolved them at ingest, or why each was not
   * (lambda/ingest/issues/resolved-frames.ts); absent without a stack, or when received before maps were resolved.
   */
  frames?: ResolvedFrame[];
}

/** An event as the control room reads it: without the store's bookkeeping. */
export type EventView = Omit<StoredEvent, 'writeToken' | 'expiresAt'>;
