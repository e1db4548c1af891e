import { randomUUID } from 'node:crypto';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { storedReports } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';
import { issuesOf } from './sentry-issues';
import {
  GO_CHARGE_BUILD_A,
  GO_CHARGE_BUILD_B,
  GO_LEGACY_CHARGE,
  GO_REFUND,
  JAVA_API_EXCEPTION,
  JAVA_CONNECTOR_FAILURE,
  JAVA_SPRING_PROXY_FRAME,
  type SentryEventJson,
} from './server-sdk-events';

/**
 * Grouping of Go and Java backends' errors (docs/sentry-sdks.md#grouping): events as sentry-go and sentry-java send
 * them (test/sentry/server-sdk-events.ts says where each comes from), posted in envelopes to the local host on
 * DynamoDB Local with a --servers key's DSN, counted by the tally. An issue is the exception type and the in-app
 * frames as the SDK marked them, each the frame's module (Go's package, Java's class) and function: never a line, a
 * file path, a host or a release.
 */
let api: LocalApi;

beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api.close();
});

/** A factory with a --servers key, and a function that posts one event in an envelope as an SDK does (a fresh event id each time). */
async function backend(label: string) {
  const factoryId = newFactoryId(label);
  const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers: true });
  const publicKey = new URL(dsnFor(api.baseUrl, key, keyId)).username;
  const path = `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${publicKey}`;
  return {
    factoryId,
    async send(event: SentryEventJson): Promise<void> {
      const eventId = randomUUID().replace(/-/g, '');
      const body = [{ event_id: eventId, sent_at: new Date().toISOString() }, { type: 'event' }, { ...event, event_id: eventId }]
        .map((part) => JSON.stringify(part))
        .join('\n');
      const res = await api.request('POST', path, { body: `${body}\n` });
      expect([res.status, res.json]).toEqual([200, { id: eventId }]);
    },
  };
}

const countsByFingerprint = async (factoryId: string) =>
  Object.fromEntries((await issuesOf(factoryId)).map((issue) => [(issue.fingerprint as string[]).join(' | '), issue.count as number]));

type JavaFrame = { function: string; module: string; lineno?: number; in_app?: boolean } & Record<string, unknown>;
const javaFramesOf = (event: SentryEventJson): JavaFrame[] =>
  (event.exception as { values: { stacktrace: { frames: JavaFrame[] } }[] }).values[0]!.stacktrace.frames;
const withJavaFrames = (event: SentryEventJson, frames: JavaFrame[]): SentryEventJson => {
  const [value] = (event.exception as { values: Record<string, unknown>[] }).values;
  return { ...event, exception: { values: [{ ...value, stacktrace: { frames } }] } };
};

/**
 * JAVA_API_EXCEPTION as the next release sends it from another host: its in-app frames' lines moved, Tomcat at
 * another patch level (another line in NioEndpoint) and one more servlet filter on the way (a frame of the same
 * sample event).
 */
function javaRedeployed(event: SentryEventJson): SentryEventJson {
  const frames = javaFramesOf(event).flatMap((frame): JavaFrame[] => {
    if (frame.in_app === true) return [{ ...frame, lineno: (frame.lineno ?? 0) + 4 }];
    if (frame.function === 'doRun') return [{ ...frame, lineno: 1455 }];
    if (frame.function === 'doDispatch') {
      return [
        {
          abs_path: 'OncePerRequestFilter.java',
          filename: 'OncePerRequestFilter.java',
          function: 'doFilter',
          in_app: false,
          lineno: 107,
          module: 'org.springframework.web.filter.OncePerRequestFilter',
        },
        frame,
      ];
    }
    return [frame];
  });
  return { ...withJavaFrames(event, frames), release: '3.0.3', server_name: 'web2.example.com' };
}

test('Go (sentry-go): one bug from two builds (other lines, paths, hosts, releases, net/http frames) is one issue counted exactly; another function, or the same function name in another package, is another issue', async () => {
  const go = await backend('sentrygo');
  for (const event of [GO_CHARGE_BUILD_A, GO_CHARGE_BUILD_B, GO_CHARGE_BUILD_A, GO_REFUND, GO_LEGACY_CHARGE]) await go.send(event);
  expect(await countsByFingerprint(go.factoryId)).toEqual({
    'error | *errors.fundamental | ChargeCard@example.com/billing/payments | handle.func1@main | main@main': 3,
    'error | *errors.fundamental | RefundCard@example.com/billing/payments | handle.func1@main | main@main': 1,
    'error | *errors.fundamental | ChargeCard@example.com/billing/legacy | handle.func1@main | main@main': 1,
  });
  // in_app as the SDK marked it: true on the app's frames, absent on GOROOT's (net/http).
  const buildB = (await storedReports(go.factoryId)).find((event) => event.release === 'billing@1.5.0')!;
  expect(buildB.sdkFrames.map((frame: Record<string, unknown>) => [frame.function, frame.module, frame.inApp])).toEqual([
    ['ChargeCard', 'example.com/billing/payments', true],
    ['handle.func1', 'main', true],
    ['HandlerFunc.ServeHTTP', 'net/http', undefined],
    ['StripPrefix.func1', 'net/http', undefined],
    ['HandlerFunc.ServeHTTP', 'net/http', undefined],
    ['main', 'main', true],
  ]);
  expect(buildB.sdkFrames[0]).toMatchObject({
    line: 10,
    file: expect.stringMatching(/\/deploy\/build-b\/src\/example\.com\/billing\/payments\/payments\.go$/),
  });
});

test('Java (sentry-java): one bug from another release and host (other lines, another Tomcat, one more filter) is one issue counted exactly; another in-app method, or the same method of another class, is another issue', async () => {
  const java = await backend('sentryjava');
  const otherClass = withJavaFrames(
    JAVA_API_EXCEPTION,
    javaFramesOf(JAVA_API_EXCEPTION).map((frame) => (frame.function === 'perform' ? { ...frame, module: 'io.sentry.example.BillingRequest' } : frame)),
  );
  for (const event of [JAVA_API_EXCEPTION, javaRedeployed(JAVA_API_EXCEPTION), JAVA_API_EXCEPTION, JAVA_CONNECTOR_FAILURE, otherClass]) await java.send(event);
  expect(await countsByFingerprint(java.factoryId)).toEqual({
    'error | ApiException | perform@io.sentry.example.ApiRequest | fetch@io.sentry.example.Sidebar | home@io.sentry.example.Application': 3,
    'error | ApiException | perform@io.sentry.example.BillingRequest | fetch@io.sentry.example.Sidebar | home@io.sentry.example.Application': 1,
    // The thrown exception's in-app frames (the last of the chain); its cause's frames are in the stack text only.
    'error | LifecycleException | main@io.sentry.example.Application': 1,
  });
  const stored = (await storedReports(java.factoryId)).find((event) => event.release === '3.0.3')!;
  expect(stored.sdkFrames.slice(0, 4).map((frame: Record<string, unknown>) => [frame.function, frame.module, frame.line, frame.inApp])).toEqual([
    ['perform', 'io.sentry.example.ApiRequest', 12, true],
    ['fetch', 'io.sentry.example.Sidebar', 9, true],
    ['home', 'io.sentry.example.Application', 106, true],
    ['invoke0', 'sun.reflect.NativeMethodAccessorImpl', undefined, false],
  ]);
});

test("Java frames the SDK left unmarked (no inAppIncludes configured) group by their paths: the JVM's own left out, never the message alone; a redeploy is one issue", async () => {
  const java = await backend('sentryjavanoinapp');
  const unmarked = (event: SentryEventJson) =>
    withJavaFrames(
      event,
      javaFramesOf(event).map(({ in_app: _inApp, ...frame }) => frame),
    );
  await java.send(unmarked(JAVA_API_EXCEPTION));
  await java.send(unmarked(javaRedeployed(JAVA_API_EXCEPTION)));
  expect(await countsByFingerprint(java.factoryId)).toEqual({
    'error | ApiException | perform@io.sentry.example.ApiRequest | fetch@io.sentry.example.Sidebar | home@io.sentry.example.Application | doInvoke@org.springframework.web.method.support.InvocableHandlerMethod | doDispatch@org.springframework.web.servlet.DispatcherServlet': 2,
  });
});

test("Java: a Spring proxy class, whose generated name differs between builds, does not split an issue; the proxied class's name still counts", async () => {
  const java = await backend('sentryjavaproxy');
  const failing = (module: string): SentryEventJson => ({
    platform: 'java',
    exception: {
      values: [
        {
          type: 'IllegalStateException',
          module: 'java.lang',
          value: 'management application not configured',
          stacktrace: { frames: [{ ...JAVA_SPRING_PROXY_FRAME, module, in_app: true }] },
        },
      ],
    },
  });
  const proxied = JAVA_SPRING_PROXY_FRAME.module;
  await java.send(failing(proxied));
  await java.send(failing(proxied.replace('1ebdddb0', '5c0ffee1')));
  await java.send(failing(proxied.replace('JipJipConfig', 'OtherConfig')));
  expect(Object.values(await countsByFingerprint(java.factoryId)).sort()).toEqual([1, 2]);
});
