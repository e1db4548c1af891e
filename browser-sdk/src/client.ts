import { retried } from './backoff.js';
import { browserRequests } from './browser-requests.js';
import { tellOnce } from './console.js';
import { configure } from './defaults.js';
import { debugIdsOf } from './debug-ids.js';
import { describeError, describeMessage, uuid, type Problem } from './describe.js';
import { ALWAYS_IGNORED, isExtensionUrl, matches, topFrameUrl } from './filters.js';
import { tokenBuckets, type TokenBuckets } from './token-bucket.js';
import { createTransport, type Transport } from './transport.js';
import { noteError, sessionBody, type PageSession } from './session.js';
import type { CaptureOptions, Config, FeatureRequest, FeatureRequestAnswer, IngestEvent, InitOptions, MessageOptions } from './types.js';

/** The SDK's state on this page: one init() at a time. */
let config: Config | undefined;
let transport: Transport | undefined;
let buckets: TokenBuckets;
let previous = '';
let sent = 0;
let listening = false;
/** The page load's session, once an init() named a release (one per page load, whatever init() follows). */
let session: PageSession | undefined;
/** The session updates in flight, for flush() to wait on. */
let sessionSends: Promise<unknown> = Promise.resolve();

/** Sends the session as it is now, at once and by the retry rule: each update is the whole state, so a resent one counts nothing twice. */
function sendSession(): void {
  const [page, settings, sender] = [session, config, transport];
  if (!page || !settings?.release || !sender) return;
  const sending = retried(() => sender.post('sessions', sessionBody(page, settings.release as string, settings.environment)), settings).then((answer) => {
    if (answer && answer.status < 300) page.acked = true;
  });
  sessionSends = Promise.all([sessionSends, sending]);
}

/** Reports one event, through every noise filter in turn; its eventId, or '' when it is dropped. */
function capture(type: IngestEvent['type'], problem: Problem, options: CaptureOptions = {}, scriptUrl?: string, unhandled = false): string {
  if (!config || !transport) return '';
  const { message = '', exception } = problem;
  if (matches(message, ALWAYS_IGNORED) || matches(message, config.ignoreErrors)) return '';
  const url = topFrameUrl(exception?.stack) ?? scriptUrl;
  if (url && (matches(url, config.denyUrls) || (config.dropExtensionErrors && isExtensionUrl(url)))) return '';
  // The page had the error whether or not the event goes (dedupe, limits, sampling): its session says so.
  if (type === 'error' && session && noteError(session, unhandled)) sendSession();
  const signature = `${type}\n${message}\n${exception?.stack ?? ''}`;
  const repeated = signature === previous;
  previous = signature;
  if (config.dedupe && repeated) return '';
  // Errors share a bucket per type; a message (no exception) has one of its own text.
  if (!buckets.take(exception?.type ?? message, Date.now())) return '';
  if (sent >= config.maxEventsPerPage || Math.random() >= config.sampleRate) return '';
  const tags = { ...config.tags, ...options.tags };
  const debugIds = debugIdsOf(exception?.stack);
  let event: IngestEvent | null = {
    eventId: uuid(),
    type,
    timestamp: new Date().toISOString(),
    ...problem,
    pageUrl: location.href,
    ...(config.release === undefined ? {} : { release: config.release }),
    ...(Object.keys(tags).length === 0 ? {} : { tags }),
    ...((options.reporter ?? config.reporter) === undefined ? {} : { reporter: options.reporter ?? config.reporter }),
    ...(options.fingerprint === undefined ? {} : { fingerprint: options.fingerprint }),
    ...(debugIds && { debugIds }),
  };
  if (config.beforeSend) {
    try {
      event = config.beforeSend(event);
    } catch (error) {
      // It may be what removes personal data: an event it failed on is not sent.
      tellOnce('before-send', `beforeSend threw (${String(error)}): the event was dropped.`);
      return '';
    }
  }
  if (!event || !transport.enqueue(event)) return '';
  sent += 1;
  return event.eventId;
}

/** The SDK must never throw into the page's own error handling, nor report its own failures in a loop. */
function guarded<T extends Event>(handle: (event: T) => void): (event: T) => void {
  return (event) => {
    try {
      handle(event);
    } catch {
      // dropped: an SDK failure is not the page's error
    }
  };
}

const onError = guarded((event: ErrorEvent) => {
  if (!config?.captureUnhandled) return;
  // Without an error object (a cross-origin script's "Script error.", say) the event's text is all there is.
  const problem = event.error == null ? describeMessage(event.message) : describeError(event.error);
  capture('error', { exception: { type: 'Error', value: problem.message ?? '' }, ...problem }, {}, event.filename || undefined, true);
});

const onRejection = guarded((event: PromiseRejectionEvent) => {
  if (config?.captureUnhandled) capture('error', describeError(event.reason, 'Unhandled promise rejection: '), {}, undefined, true);
});

const onHide = guarded(() => {
  if (document.visibilityState === 'hidden') transport?.drain();
});
const onPageHide = guarded(() => transport?.drain());

/** Starts the SDK: from now on the page's unhandled errors and rejections are reported. */
export function init(options: InitOptions): void {
  if (!options || typeof options.key !== 'string' || typeof options.baseUrl !== 'string') {
    throw new TypeError("ContactsIngest.init({ key, baseUrl }): key is the publishable key (dfpk_…), baseUrl the service's base address");
  }
  // A second init() replaces the first: pending events go out under the old settings first.
  transport?.drain();
  config = configure(options);
  transport = createTransport(config, browserRequests());
  buckets = tokenBuckets(config.errorBurst, config.errorRefillMs);
  previous = '';
  sent = 0;
  if (!session && config.release && config.sessions) {
    session = { sid: uuid(), started: new Date().toISOString(), status: 'ok', errors: 0 };
    sendSession();
  }
  if (listening) return;
  listening = true;
  // Beside the page's own handlers, never in place of them (window.onerror stays the page's).
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  document.addEventListener('visibilitychange', onHide);
  addEventListener('pagehide', onPageHide);
}

/** Reports an error (or any thrown value); its eventId, or '' when not sent (no init(), or dropped by noise control). */
export function captureException(error: unknown, options?: CaptureOptions): string {
  return capture('error', describeError(error), options);
}

/** Reports a message (type "message", or "bug_report" when options.type says so). */
export function captureMessage(message: string, options?: MessageOptions): string {
  return capture(options?.type ?? 'message', describeMessage(message), options);
}

/**
 * Sends a feature request now (not batched); resolves to the API's answer,
 * never rejects. Refusals follow the SDK's one retry rule (backoff.ts: a
 * 429 after its Retry-After, a 503, a 408 or a network failure after the
 * backoff), with the same requestId, so it is stored once.
 */
export async function submitFeatureRequest(request: FeatureRequest): Promise<FeatureRequestAnswer> {
  const settings = config;
  const sender = transport;
  if (!settings || !sender) return { ok: false, status: 0, error: 'Call ContactsIngest.init({ key, baseUrl }) first.' };
  const reporter = request.reporter ?? settings.reporter;
  const body = JSON.stringify({ requestId: uuid(), pageUrl: location.href, ...request, ...(reporter ? { reporter } : {}) });
  const answer = await retried(() => sender.post('feature-requests', body), settings);
  if (answer === undefined) return { ok: false, status: 0, error: `Could not reach ${settings.baseUrl}.` };
  if (answer.status < 300) return { ok: true, status: answer.status, ...answer.body } as FeatureRequestAnswer;
  return { ok: false, status: answer.status, error: answer.error };
}

/** Sends every pending event now; true once all were sent (and the session's updates answered), false if `timeoutMs` passed first. */
export async function flush(timeoutMs = 5000): Promise<boolean> {
  const sessionsDone = Promise.race([sessionSends.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false))]);
  return (await (transport ? transport.flush(timeoutMs) : true)) && (await sessionsDone);
}
