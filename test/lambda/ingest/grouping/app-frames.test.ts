import { appFrameFlags, isAppFrame, isOthersCode, isServerFrame } from '../../../../lambda/ingest/grouping/app-frames';

/** Which frames are the app's own (docs/report-issues.md#the-apps-own-frames), rule by rule. */

test("a frame a map resolved into a package folder is not the app's, though its SDK marked it in_app (it saw only the bundle)", () => {
  const wrapper = {
    file: 'https://shop.example.com/assets/app-1a2b.js',
    inApp: true,
    original: { source: '../../node_modules/@sentry/browser/build/npm/esm/helpers.js' },
  };
  expect(isAppFrame(wrapper, true)).toBe(false);
  expect(isAppFrame({ ...wrapper, original: { source: 'webpack://shop/./node_modules/preact/dist/preact.module.js' } }, true)).toBe(false);
  expect(isAppFrame({ ...wrapper, original: { source: '../../src/cart.js' } }, true)).toBe(true);
});

test("a source the map's ignoreList names is not the app's", () => {
  expect(isAppFrame({ file: 'https://h/app.js', original: { source: 'src/polyfills.js', ignored: true } }, false)).toBe(false);
});

test("an SDK's explicit in_app wins over the path: true for a vendored path, false for the app's folder", () => {
  expect(isAppFrame({ file: '/srv/app/vendor/billing/charge.py', module: 'vendor.billing.charge', inApp: true }, true)).toBe(true);
  expect(isAppFrame({ file: '/srv/app/orders.py', module: 'orders', inApp: false }, true)).toBe(false);
});

test("a frame left unmarked beside frames the SDK marked in_app is not the app's (Go leaves false out)", () => {
  expect(
    appFrameFlags([
      { module: 'main', file: '/src/main.go', inApp: true },
      { module: 'net/http', file: '/usr/local/go/src/net/http/server.go' },
    ]),
  ).toEqual([true, false]);
});

test("unmarked frames: package folders, runtimes and SDK wrappers are others'; server paths and page scripts the app's", () => {
  const unmarked = (frame: { file?: string; module?: string }) => appFrameFlags([frame])[0];
  expect(unmarked({ file: '/usr/lib/python3/dist-packages/flask/app.py', module: 'flask.app' })).toBe(false);
  expect(unmarked({ file: '/srv/venv/lib/python3.11/site-packages/requests/api.py' })).toBe(false);
  expect(unmarked({ file: 'node:internal/process/task_queues' })).toBe(false);
  expect(unmarked({ module: 'java.lang.Thread', file: 'Thread.java' })).toBe(false);
  expect(unmarked({ file: '/usr/lib/python3/dist-packages/sentry_sdk/integrations/flask.py', module: 'sentry_sdk.integrations.flask' })).toBe(false);
  expect(unmarked({ file: 'https://h/node_modules/.vite/deps/react.js' })).toBe(false);
  expect(unmarked({ file: 'https://h/assets/contacts-ingest.min.js' })).toBe(false);
  expect(unmarked({ file: '/srv/releases/123/app.py', module: 'app' })).toBe(true);
  expect(unmarked({ file: 'https://h/assets/app.js' })).toBe(true);
  expect(unmarked({ file: 'chrome-extension://abc/inject.js' })).toBe(false);
  expect(unmarked({ file: '<anonymous>' })).toBe(false);
});

test('isOthersCode and isServerFrame read paths and modules of every SDK', () => {
  expect(isOthersCode('/app/gems/rack-3.0/lib/rack.rb')).toBe(true);
  expect(isOthersCode('/root/go/pkg/mod/github.com/lib/pq@v1/conn.go')).toBe(true);
  expect(isOthersCode('orders/views.py')).toBe(false);
  expect(isServerFrame({ file: '/srv/app.py' })).toBe(true);
  expect(isServerFrame({ module: 'main' })).toBe(true);
  expect(isServerFrame({ file: 'https://h/app.js' })).toBe(false);
});
