/**
 * Events as the Go and Java Sentry SDKs send them (the body of an envelope's event item), trimmed: fields this
 * service drops (docs/sentry-sdks.md#kept-and-dropped) such as contexts, modules and the source lines around a frame
 * are left out; every kept field is as the SDK wrote it. test/sentry/sentry-server-frames.test.ts posts them.
 * Neither SDK can be installed by CI here (only npm and Debian packages: Debian has no Java SDK, and its Go SDK
 * with the Go toolchain takes more than a minute to install), so the events are data:
 *   - Go: printed by the unmodified getsentry/sentry-go 0.11.0 (Debian's golang-github-getsentry-sentry-go-dev,
 *     Go 1.19) from the small billing service test/sentry/go-billing.sh builds, errors made with github.com/pkg/errors
 *     (whose stack the SDK reads). The SDK writes `exception` as a list, names each frame by package (`module`) and
 *     function, and marks `in_app` on frames outside GOROOT (it omits the key when false, so GOROOT frames have none).
 *   - Java: from getsentry/sentry's own test and sample events of sentry-java, cited at each. sentry-java
 *     (sentry/src/main/java/io/sentry/SentryStackTraceFactory.java) names each frame by class (`module`) and method
 *     (`function`), `filename` without a path, and marks `in_app` true for classes under the app's inAppIncludes,
 *     false under inAppExcludes, and leaves it out otherwise.
 */

/** A Sentry event's JSON, as parsed. */
export type SentryEventJson = Record<string, unknown>;

/** ChargeCard declines: build a (release billing@1.4.2, host billing-1), the request straight to the handler. */
export const GO_CHARGE_BUILD_A: SentryEventJson = {
  environment: 'production',
  event_id: '05470798652a4ac6915db955d3a92d8f',
  level: 'error',
  platform: 'go',
  release: 'billing@1.4.2',
  sdk: {
    name: 'sentry.go',
    version: '0.11.0',
    integrations: ['ContextifyFrames', 'Environment', 'IgnoreErrors', 'Modules'],
    packages: [
      {
        name: 'sentry-go',
        version: '0.11.0',
      },
    ],
  },
  server_name: 'billing-1',
  user: {},
  exception: [
    {
      type: '*errors.fundamental',
      value: 'card declined for 1250 cents',
      stacktrace: {
        frames: [
          {
            function: 'main',
            module: 'main',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/cmd/billing/main.go',
            lineno: 50,
            context_line: '\th.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/charge", nil))',
            in_app: true,
          },
          {
            function: 'HandlerFunc.ServeHTTP',
            module: 'net/http',
            abs_path: '/usr/lib/go-1.19/src/net/http/server.go',
            lineno: 2109,
          },
          {
            function: 'handle.func1',
            module: 'main',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/cmd/billing/main.go',
            lineno: 28,
            context_line: '\t\tif err := charge(1250); err != nil {',
            in_app: true,
          },
          {
            function: 'ChargeCard',
            module: 'example.com/billing/payments',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/payments/payments.go',
            lineno: 8,
            context_line: '\treturn errors.Errorf("card declined for %d cents", cents)',
            in_app: true,
          },
        ],
      },
    },
  ],
  timestamp: '2026-11-27T15:16:59.10791718Z',
};

/** The same bug in build b: three lines added above it, another checkout path, host billing-2, release billing@1.5.0,
 * and the request through one more net/http handler (http.StripPrefix: GOROOT frames, which the SDK leaves without in_app). */
export const GO_CHARGE_BUILD_B: SentryEventJson = {
  environment: 'production',
  event_id: '5136b88b99de468d9adddb26ff7ed0d8',
  level: 'error',
  platform: 'go',
  release: 'billing@1.5.0',
  sdk: {
    name: 'sentry.go',
    version: '0.11.0',
    integrations: ['ContextifyFrames', 'Environment', 'IgnoreErrors', 'Modules'],
    packages: [
      {
        name: 'sentry-go',
        version: '0.11.0',
      },
    ],
  },
  server_name: 'billing-2',
  user: {},
  exception: [
    {
      type: '*errors.fundamental',
      value: 'card declined for 1250 cents',
      stacktrace: {
        frames: [
          {
            function: 'main',
            module: 'main',
            abs_path: '/tmp/ci-2/deploy/build-b/src/example.com/billing/cmd/billing/main.go',
            lineno: 50,
            context_line: '\th.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/charge", nil))',
            in_app: true,
          },
          {
            function: 'HandlerFunc.ServeHTTP',
            module: 'net/http',
            abs_path: '/usr/lib/go-1.19/src/net/http/server.go',
            lineno: 2109,
          },
          {
            function: 'StripPrefix.func1',
            module: 'net/http',
            abs_path: '/usr/lib/go-1.19/src/net/http/server.go',
            lineno: 2152,
          },
          {
            function: 'HandlerFunc.ServeHTTP',
            module: 'net/http',
            abs_path: '/usr/lib/go-1.19/src/net/http/server.go',
            lineno: 2109,
          },
          {
            function: 'handle.func1',
            module: 'main',
            abs_path: '/tmp/ci-2/deploy/build-b/src/example.com/billing/cmd/billing/main.go',
            lineno: 28,
            context_line: '\t\tif err := charge(1250); err != nil {',
            in_app: true,
          },
          {
            function: 'ChargeCard',
            module: 'example.com/billing/payments',
            abs_path: '/tmp/ci-2/deploy/build-b/src/example.com/billing/payments/payments.go',
            lineno: 10,
            context_line: '\treturn errors.Errorf("card declined for %d cents", cents)',
            in_app: true,
          },
        ],
      },
    },
  ],
  timestamp: '2026-11-27T15:16:59.113204431Z',
};

/** Another function of the same package declines with the same message (RefundCard). */
export const GO_REFUND: SentryEventJson = {
  environment: 'production',
  event_id: 'a5068600ea3f40e99fdf8898a8e3ee6f',
  level: 'error',
  platform: 'go',
  release: 'billing@1.4.2',
  sdk: {
    name: 'sentry.go',
    version: '0.11.0',
    integrations: ['ContextifyFrames', 'Environment', 'IgnoreErrors', 'Modules'],
    packages: [
      {
        name: 'sentry-go',
        version: '0.11.0',
      },
    ],
  },
  server_name: 'billing-1',
  user: {},
  exception: [
    {
      type: '*errors.fundamental',
      value: 'card declined for 1250 cents',
      stacktrace: {
        frames: [
          {
            function: 'main',
            module: 'main',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/cmd/billing/main.go',
            lineno: 50,
            context_line: '\th.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/charge", nil))',
            in_app: true,
          },
          {
            function: 'HandlerFunc.ServeHTTP',
            module: 'net/http',
            abs_path: '/usr/lib/go-1.19/src/net/http/server.go',
            lineno: 2109,
          },
          {
            function: 'handle.func1',
            module: 'main',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/cmd/billing/main.go',
            lineno: 28,
            context_line: '\t\tif err := charge(1250); err != nil {',
            in_app: true,
          },
          {
            function: 'RefundCard',
            module: 'example.com/billing/payments',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/payments/payments.go',
            lineno: 13,
            context_line: '\treturn errors.Errorf("card declined for %d cents", cents)',
            in_app: true,
          },
        ],
      },
    },
  ],
  timestamp: '2026-11-27T15:16:59.121915878Z',
};

/** A function of the same name in another package declines with the same message (legacy.ChargeCard). */
export const GO_LEGACY_CHARGE: SentryEventJson = {
  environment: 'production',
  event_id: '15eb353bf0ab40d298739834a380ab53',
  level: 'error',
  platform: 'go',
  release: 'billing@1.4.2',
  sdk: {
    name: 'sentry.go',
    version: '0.11.0',
    integrations: ['ContextifyFrames', 'Environment', 'IgnoreErrors', 'Modules'],
    packages: [
      {
        name: 'sentry-go',
        version: '0.11.0',
      },
    ],
  },
  server_name: 'billing-1',
  user: {},
  exception: [
    {
      type: '*errors.fundamental',
      value: 'card declined for 1250 cents',
      stacktrace: {
        frames: [
          {
            function: 'main',
            module: 'main',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/cmd/billing/main.go',
            lineno: 50,
            context_line: '\th.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/charge", nil))',
            in_app: true,
          },
          {
            function: 'HandlerFunc.ServeHTTP',
            module: 'net/http',
            abs_path: '/usr/lib/go-1.19/src/net/http/server.go',
            lineno: 2109,
          },
          {
            function: 'handle.func1',
            module: 'main',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/cmd/billing/main.go',
            lineno: 28,
            context_line: '\t\tif err := charge(1250); err != nil {',
            in_app: true,
          },
          {
            function: 'ChargeCard',
            module: 'example.com/billing/legacy',
            abs_path: '/tmp/ci-1/build-a/src/example.com/billing/legacy/legacy.go',
            lineno: 7,
            context_line: '\treturn errors.Errorf("card declined for %d cents", cents)',
            in_app: true,
          },
        ],
      },
    },
  ],
  timestamp: '2026-11-27T15:16:59.12896988Z',
};

/**
 * An ApiException thrown through three in-app frames (Application.home → Sidebar.fetch → ApiRequest.perform) under
 * Spring MVC and Tomcat. From getsentry/sentry, src/sentry/data/samples/java.json (an event of sentry-java 1.4.0),
 * its framework frames cut to a few; that SDK generation named the interface `sentry.interfaces.Exception`, here
 * under the name every later sentry-java sends, `exception`.
 */
export const JAVA_API_EXCEPTION: SentryEventJson = {
  platform: 'java',
  release: '3.0.2',
  environment: 'production',
  server_name: 'web1.example.com',
  sdk: { name: 'sentry-java', version: '1.4.0-3ded0' },
  exception: {
    values: [
      {
        module: 'io.sentry.example',
        type: 'ApiException',
        value: 'Authentication failed, token expired!',
        stacktrace: {
          frames: [
            { abs_path: 'Thread.java', filename: 'Thread.java', function: 'run', in_app: false, lineno: 748, module: 'java.lang.Thread' },
            {
              abs_path: 'NioEndpoint.java',
              filename: 'NioEndpoint.java',
              function: 'doRun',
              in_app: false,
              lineno: 1434,
              module: 'org.apache.tomcat.util.net.NioEndpoint$SocketProcessor',
            },
            {
              abs_path: 'DispatcherServlet.java',
              filename: 'DispatcherServlet.java',
              function: 'doDispatch',
              in_app: false,
              lineno: 963,
              module: 'org.springframework.web.servlet.DispatcherServlet',
            },
            {
              abs_path: 'InvocableHandlerMethod.java',
              filename: 'InvocableHandlerMethod.java',
              function: 'doInvoke',
              in_app: false,
              lineno: 205,
              module: 'org.springframework.web.method.support.InvocableHandlerMethod',
            },
            { abs_path: 'Method.java', filename: 'Method.java', function: 'invoke', in_app: false, lineno: 498, module: 'java.lang.reflect.Method' },
            {
              abs_path: 'NativeMethodAccessorImpl.java',
              filename: 'NativeMethodAccessorImpl.java',
              function: 'invoke0',
              in_app: false,
              module: 'sun.reflect.NativeMethodAccessorImpl',
            },
            {
              abs_path: 'Application.java',
              filename: 'Application.java',
              function: 'home',
              in_app: true,
              lineno: 102,
              module: 'io.sentry.example.Application',
            },
            { abs_path: 'Sidebar.java', filename: 'Sidebar.java', function: 'fetch', in_app: true, lineno: 5, module: 'io.sentry.example.Sidebar' },
            { abs_path: 'ApiRequest.java', filename: 'ApiRequest.java', function: 'perform', in_app: true, lineno: 8, module: 'io.sentry.example.ApiRequest' },
          ],
        },
      },
    ],
  },
};

/**
 * Tomcat failing to start its connector: a LifecycleException caused by a BindException, the only in-app frame
 * Application.main. From getsentry/sentry, tests/sentry/grouping/grouping_inputs/java-chained.json (a sentry-java
 * event), each exception's frames cut to the first and last few.
 */
export const JAVA_CONNECTOR_FAILURE: SentryEventJson = {
  event_id: '0c958c4b7c5f447eb54b4656198d8d5a',
  environment: 'production',
  platform: 'java',
  logger: 'org.apache.catalina.core.StandardService',
  exception: {
    values: [
      {
        stacktrace: {
          frames: [
            {
              function: 'main',
              abs_path: 'Application.java',
              module: 'io.sentry.example.Application',
              filename: 'Application.java',
              lineno: 86,
              in_app: false,
            },
            {
              function: 'run',
              abs_path: 'SpringApplication.java',
              module: 'org.springframework.boot.SpringApplication',
              filename: 'SpringApplication.java',
              lineno: 1151,
              in_app: false,
            },
            { function: 'bind', abs_path: 'Net.java', module: 'sun.nio.ch.Net', filename: 'Net.java', lineno: 433, in_app: false },
            { function: 'bind0', abs_path: 'Net.java', filename: 'Net.java', module: 'sun.nio.ch.Net', in_app: false },
          ],
        },
        type: 'BindException',
        value: 'Address already in use',
        module: 'java.net',
      },
      {
        stacktrace: {
          frames: [
            { function: 'main', abs_path: 'Application.java', module: 'io.sentry.example.Application', filename: 'Application.java', lineno: 86, in_app: true },
            {
              function: 'run',
              abs_path: 'SpringApplication.java',
              module: 'org.springframework.boot.SpringApplication',
              filename: 'SpringApplication.java',
              lineno: 1151,
              in_app: false,
            },
            {
              function: 'addConnector',
              abs_path: 'StandardService.java',
              module: 'org.apache.catalina.core.StandardService',
              filename: 'StandardService.java',
              lineno: 225,
              in_app: false,
            },
            {
              function: 'start',
              abs_path: 'LifecycleBase.java',
              module: 'org.apache.catalina.util.LifecycleBase',
              filename: 'LifecycleBase.java',
              lineno: 167,
              in_app: false,
            },
          ],
        },
        type: 'LifecycleException',
        value: 'Failed to start component [Connector[HTTP/1.1-8080]]',
        module: 'org.apache.catalina',
      },
    ],
  },
  logentry: { formatted: 'Failed to start connector [Connector[HTTP/1.1-8080]]' },
  release: null,
};

/**
 * A frame of a Spring configuration class as Spring's CGLIB proxy names it: the class name ends in a generated hash
 * (`$$EnhancerBySpringCGLIB$$1ebdddb0`), which another build or JVM generates differently. The frame is from
 * getsentry/sentry, tests/sentry/grouping/grouping_inputs/frame-ignores-ENHANCED-spring-classes.json (a stack trace
 * without an exception there); here the exception sentry-java sends around it, the frame in_app as an
 * inAppIncludes of the app's package marks it.
 */
export const JAVA_SPRING_PROXY_FRAME = {
  function: 'jipJipManagementApplication',
  module: 'invalid.gruml.talkytalkyhub.common.config.JipJipConfig$$EnhancerBySpringCGLIB$$1ebdddb0',
};
