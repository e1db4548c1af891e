/**
 * `npm run sdk:anchors`: measures the minimal error-reporting bundles of
 * other browser SDKs, the figures bench/sdk-size.md compares ours with.
 * For each: its published package (and its dependencies) installed with npm
 * into a scratch folder outside the project, a minimal entry that starts
 * error reporting bundled by esbuild exactly like our one-file build
 * (browser, IIFE, minified, es2020, NODE_ENV production), gzipped at level 9.
 * Writes bench/sdk-anchors.json, which `npm run sdk:size` prints beside our
 * figure. Needs the npm registry; not part of `npm test`.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runWithoutOptions } from '../../local/harness/cli';

interface Anchor {
  package: string;
  version: string;
  /** Which of the package's builds, when it has several. */
  variant?: string;
  /** The minimal page code that starts its error reporting. */
  entry: string;
}

/** Versions pinned so that a rerun measures the same thing; change them on purpose. */
const ANCHORS: Anchor[] = [
  {
    package: '@sentry/browser',
    version: '11.12.0',
    entry: `import { init } from '@sentry/browser';\ninit({ dsn: 'https://public@o0.ingest.example.com/1' });`,
  },
  {
    package: 'posthog-js',
    version: '1.449.2',
    entry: `import posthog from 'posthog-js';\nposthog.init('phc_example', { api_host: 'https://ph.example.com', autocapture: false, capture_pageview: false, capture_exceptions: true });`,
  },
  {
    package: 'posthog-js',
    version: '1.449.2',
    variant: 'slim',
    entry: `import posthog from 'posthog-js/dist/module.slim.js';\nposthog.init('phc_example', { api_host: 'https://ph.example.com', autocapture: false, capture_pageview: false, capture_exceptions: true });`,
  },
  {
    package: '@bugsnag/browser',
    version: '9.0.0',
    entry: `import Bugsnag from '@bugsnag/browser';\nBugsnag.start({ apiKey: '0123456789abcdef0123456789abcdef' });`,
  },
  {
    package: '@honeybadger-io/js',
    version: '6.16.5',
    entry: `import Honeybadger from '@honeybadger-io/js';\nHoneybadger.configure({ apiKey: 'hbp_example' });`,
  },
  {
    package: 'rollbar',
    version: '3.1.0',
    entry: `import Rollbar from 'rollbar';\nnew Rollbar({ accessToken: 'example', captureUncaught: true, captureUnhandledRejections: true });`,
  },
  {
    package: '@datadog/browser-logs',
    version: '7.16.2',
    entry: `import { datadogLogs } from '@datadog/browser-logs';\ndatadogLogs.init({ clientToken: 'pub_example', site: 'example.com', forwardErrorsToLogs: true, sessionSampleRate: 100 });`,
  },
];

const OUT = join(__dirname, '..', '..', 'bench', 'sdk-anchors.json');

async function measure(anchor: Anchor, scratch: string) {
  const dir = join(scratch, `${anchor.package}${anchor.variant ?? ''}`.replace(/[@/]/g, '_'));
  const spec = `${anchor.package}@${anchor.version}`;
  const install = spawnSync('npm', ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', spec], {
    encoding: 'utf8',
  });
  if (install.status !== 0) throw new Error(`npm install ${spec} failed:\n${install.stderr}`);
  const installed = (JSON.parse(readFileSync(join(dir, 'node_modules', anchor.package, 'package.json'), 'utf8')) as { version: string }).version;
  writeFileSync(join(dir, 'entry.js'), `${anchor.entry}\n`);
  const result = await build({
    entryPoints: [join(dir, 'entry.js')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild wrote nothing for ${spec}`);
  return {
    package: anchor.package,
    version: installed,
    ...(anchor.variant ? { variant: anchor.variant } : {}),
    entry: anchor.entry,
    bytes: file.contents.length,
    gzipBytes: gzipSync(file.contents, { level: 9 }).length,
  };
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'contacts-sdk-anchors-'));
  try {
    const anchors = [];
    for (const anchor of ANCHORS) {
      const measured = await measure(anchor, scratch);
      console.log(
        `${`${measured.package}@${measured.version}${anchor.variant ? ` (${anchor.variant})` : ''}`.padEnd(34)} ${measured.bytes.toLocaleString('en-US').padStart(9)} bytes minified ${measured.gzipBytes.toLocaleString('en-US').padStart(7)} bytes gzipped`,
      );
      anchors.push(measured);
    }
    const method =
      'npm install <package>@<version> --ignore-scripts into a scratch folder; esbuild bundle of the entry (iife, platform browser, target es2020, minify, NODE_ENV production); gzip level 9 (node:zlib)';
    writeFileSync(
      OUT,
      `${JSON.stringify({ measuredAt: new Date().toISOString().slice(0, 10), esbuild: (await import('esbuild')).version, method, anchors }, null, 2)}\n`,
    );
    console.log(`written to bench/sdk-anchors.json`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// As every tool script: --help prints this, an argument is refused with it (local/harness/cli.ts).
runWithoutOptions('usage: npm run sdk:anchors   (no arguments; needs the npm registry)', main);
