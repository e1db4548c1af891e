import { stop as stopEsbuild } from 'esbuild';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { launchEngine, type Engine } from '../../tools/browsers/engines';
import { serveSite } from '../support/browser-sdk';
import { CONTROL_CALLER } from '../support/control-memory';
import { tallied } from '../support/tally';
import { sentryBrowserBundle } from '../support/sentry-browser-bundle';
import {
  bearer,
  issueKey,
  issuePublishableKey,
  newFactoryId,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  type LocalApi,
} from '../support/local-api';

/**
 * The unmodified @sentry/browser in headless Chromium, default settings: a page's error, then the person's words
 * about it through `captureFeedback` (what the feedback widget calls), naming the error's event. The feedback is
 * the factory's (docs/feedback.md), tied to the error's issue and to the contact of the email the person gave,
 * whichever of the two requests the browser delivered first.
 */
let api: LocalApi;
let engine: Engine;
let site: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();

beforeAll(async () => {
  const bundle = sentryBrowserBundle(['init', 'captureException', 'captureFeedback', 'flush']);
  await stopEsbuild();
  site = await serveSite({ '/sentry.min.js': bundle }, (path) => pages.get(path) ?? '<!doctype html><title>none</title>');
  api = await startLocalHost(realIngestDependencies());
  engine = await launchEngine('chromium');
}, 90_000);
afterAll(async () => {
  await engine?.close();
  site?.close();
  await api?.close();
});

const page = (dsn: string, email: string) => `<!doctype html><title>shop</title><script src="/sentry.min.js"></script><script>
  Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'shop@3.0.0' });
  function checkout() { throw new TypeError('basket total is NaN'); }
  window.report = function () {
    var eventId;
    try { checkout(); } catch (e) { eventId = Sentry.captureException(e); }
    Sentry.captureFeedback({ message: 'The total says NaN <b>and</b> my token is Bearer abcdefghijklmnopqrstuvwxyz012345', name: 'Ada', email: ${JSON.stringify(email)}, associatedEventId: eventId });
    return Sentry.flush(10000);
  };
</script>`;

test("captureFeedback from @sentry/browser in Chromium is the factory's feedback, tied to its error's issue and its email's contact, scrubbed", async () => {
  const factoryId = newFactoryId('sentryfb');
  const { key, keyId } = await issuePublishableKey(factoryId, [site.origin]);
  const email = 'ada@engines.example';
  const created = await api.request('POST', '/api/v1/contacts', { headers: bearer((await issueKey(factoryId)).key), body: { email } });
  expect(created.status).toBe(201);
  pages.set('/shop', page(dsnFor(api.baseUrl, key, keyId), email));
  const tab = await engine.newTab();
  await tab.goto(`${site.origin}/shop`);
  expect(await tab.evaluate<boolean>('window.report()')).toBe(true);

  const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
  const list = async () =>
    (await handleControlRequest(control, { operation: 'feedback.list', factoryId }, { principal: CONTROL_CALLER })).body.feedback as Record<string, unknown>[];
  // flush() resolved once both requests were answered: both are stored when it returns true.
  const feedback = await list();
  expect(feedback).toHaveLength(1);
  expect(feedback[0]).toEqual(
    expect.objectContaining({
      source: 'feedback',
      issueId: expect.stringMatching(/^iss_/),
      contactId: created.json.contact.id,
      reporter: { email, name: 'Ada' },
      url: `${site.origin}/shop`,
    }),
  );
  expect(feedback[0]?.message).toContain('The total says NaN <b>and</b>');
  expect(feedback[0]?.message).not.toContain('abcdefghijklmnopqrstuvwxyz012345');
  // The issue item is the tally's: counted from the table's stream.
  await tallied();
  const issue = await handleControlRequest(control, { operation: 'issues.show', factoryId, issueId: feedback[0]?.issueId }, { principal: CONTROL_CALLER });
  expect((issue.body.issue as { title: string }).title).toContain('basket total is NaN');
}, 90_000);
