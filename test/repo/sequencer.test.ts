import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AggregatedResult, Test } from '@jest/test-result';

/** The sequencer of npm test's one jest run (jest.npm-test.config.js), as jest loads it: plain JavaScript. */
interface Sequencer {
  sort(tests: Test[]): Test[];
  cacheResults(tests: Test[], results: AggregatedResult): void;
}
const BrowsersLastSequencer = require('../support/sequencer.js') as { new (options: unknown): Sequencer; SLOW_FILES: string[] };

const ROOT = join(__dirname, '..', '..');

/** One jest project whose durations are kept in `cacheDirectory` (a fresh clone has none). */
function project(cacheDirectory = mkdtempSync(join(tmpdir(), 'sequencer-'))) {
  const context = { config: { cache: true, cacheDirectory, id: 'project', haste: {} }, hasteFS: { getSize: () => 1 } };
  return (relative: string) => ({ path: join(ROOT, relative), context }) as unknown as Test;
}

const order = (tests: Test[]) => new BrowsersLastSequencer({}).sort(tests).map((test) => test.path.slice(ROOT.length + 1));

test('every file the sequencer lists as slow exists, so a rename cannot silently drop it from the order', () => {
  expect(BrowsersLastSequencer.SLOW_FILES.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
});

test('on a fresh clone the browser files go after all others, each group with its listed slow files first, in the listed order', () => {
  const file = project();
  const files = [
    'test/browser/ingest-browser.test.ts',
    'test/browser/source-maps.test.ts',
    'test/browser/sdk/transport.test.ts',
    'test/lambda/kernel/email.test.ts',
    'test/cdk/nag.test.ts',
    'test/cli/start.test.ts',
    'test/browser/sdk/capture.test.ts',
  ];
  expect(order(files.map(file))).toEqual([
    'test/cli/start.test.ts',
    'test/cdk/nag.test.ts',
    'test/lambda/kernel/email.test.ts',
    'test/browser/sdk/transport.test.ts',
    'test/browser/sdk/capture.test.ts',
    'test/browser/source-maps.test.ts',
    'test/browser/ingest-browser.test.ts',
  ]);
});

test('with the durations of an earlier run the browser files still go last, each group longest first', () => {
  const file = project();
  const took = {
    'test/browser/sdk/capture.test.ts': 50,
    'test/browser/ingest-browser.test.ts': 90,
    'test/lambda/kernel/email.test.ts': 30,
    'test/cli/start.test.ts': 5,
  };
  const tests = Object.keys(took).map(file);
  new BrowsersLastSequencer({}).cacheResults(tests, {
    testResults: Object.entries(took).map(([relative, runtime]) => ({
      testFilePath: join(ROOT, relative),
      perfStats: { runtime },
      numFailingTests: 0,
      skipped: false,
    })),
  } as unknown as AggregatedResult);
  expect(order(Object.keys(took).map(file))).toEqual([
    'test/lambda/kernel/email.test.ts',
    'test/cli/start.test.ts',
    'test/browser/ingest-browser.test.ts',
    'test/browser/sdk/capture.test.ts',
  ]);
});
