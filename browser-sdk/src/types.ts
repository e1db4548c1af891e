/** What the reporter of an event or feature request says about themselves (stored as given, unverified). */
export interface Reporter {
  email?: string;
  name?: string;
}

/** One event of `POST /ingest/v1/events`, as the SDK sends it (docs/browser-sdk.md, "What it captures"). */
export interface IngestEvent {
  eventId: string;
  type: 'error' | 'message' | 'bug_report';
  timestamp: string;
  message?: string;
  exception?: { type?: string; value?: string; stack?: string };
  pageUrl?: string;
  release?: string;
  tags?: Record<string, string>;
  reporter?: Reporter;
  fingerprint?: string[];
  /** Script URL → debug id of the scripts in the stack (docs/source-maps.md), when the page's scripts were injected. */
  debugIds?: Record<string, string>;
}

/** Per-call additions to an event. */
export interface CaptureOptions {
  /** Merged over the `tags` given to init(). */
  tags?: Record<string, string>;
  /** Replaces the `reporter` given to init() for this event. */
  reporter?: Reporter;
  /** Decides alone which issue the server groups the event into. */
  fingerprint?: string[];
}

export interface MessageOptions extends CaptureOptions {
  /** `message` (the default), or `bug_report` for what a visitor reported by hand. */
  type?: 'message' | 'bug_report';
}

export type Pattern = string | RegExp;

/** Everything init() takes; only `key` and `baseUrl` are required. Defaults in defaults.ts. */
export interface InitOptions {
  /** The publishable key (dfpk_…) issued for this website. */
  key: string;
  /** The service's base address; the SDK appends /ingest/v1/…. */
  baseUrl: string;
  /** The release this page runs: its events say it, and with it the page load is a session (release health). */
  release?: string;
  /** The release's environment its session counts under (`production` when not given). */
  environment?: string;
  /** Send the page load's session when a release is set (docs/release-health.md); false sends none. */
  sessions?: boolean;
  tags?: Record<string, string>;
  reporter?: Reporter;
  /** Report the page's unhandled errors and promise rejections. */
  captureUnhandled?: boolean;
  /** Share of events kept, 0 to 1. */
  sampleRate?: number;
  /** Sees each event last: return it (changed or not) to send it, null to drop it. */
  beforeSend?: (event: IngestEvent) => IngestEvent | null;
  /** Events whose message contains one of these strings or matches one of these patterns are dropped. */
  ignoreErrors?: Pattern[];
  /** Errors thrown from a script whose URL matches are dropped. */
  denyUrls?: Pattern[];
  /** Drop errors thrown from browser extensions' scripts. */
  dropExtensionErrors?: boolean;
  /** Drop an event identical to the one captured just before it. */
  dedupe?: boolean;
  /** Events sent at most per page load. */
  maxEventsPerPage?: number;
  /** Events of one error type (or of one message text) sent at once… */
  errorBurst?: number;
  /** …then one more every this many ms. */
  errorRefillMs?: number;
  /** After a request starts, how long what follows waits to go with others (the first event after a quiet moment goes at once). */
  flushDelayMs?: number;
  /** Events per request (the API takes 20 at most). */
  maxBatchEvents?: number;
  /** Bytes per request (the API takes 64 KiB at most). */
  maxRequestBytes?: number;
  /** Events kept waiting for the API, at most; more are dropped. */
  maxQueuedEvents?: number;
  /** Retries of one event after a 429, 503, 408, another 5xx or a network failure: tried 1 + this many times in all (docs/browser-sdk.md#the-sdks-retry-rule). */
  maxRetries?: number;
  /** First retry waits about this long; each next one twice as long… */
  retryBaseMs?: number;
  /** …up to this. */
  retryMaxMs?: number;
}

export type Config = Required<Omit<InitOptions, 'release' | 'environment' | 'tags' | 'reporter' | 'beforeSend'>> &
  Pick<InitOptions, 'release' | 'environment' | 'tags' | 'reporter' | 'beforeSend'>;

/** A feature request, as submitFeatureRequest() takes it. */
export interface FeatureRequest {
  title: string;
  description?: string;
  category?: string;
  reporter?: Reporter;
}

/** What submitFeatureRequest() resolves to: the API's answer, or why there is none (status 0). */
export type FeatureRequestAnswer =
  | { ok: true; status: number; created: boolean; featureRequest: { id: string; title: string; createdAt: string } & Record<string, unknown> }
  | { ok: false; status: number; error: string };
