import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDumpAcct } from '../../../tools/test-cpu/accounting';
import { cpuByKind, findRoot, median, processTree, recordOfPid } from '../../../tools/test-cpu/cpu-by-kind';
import { acctLine } from './acct-lines';

/** `dump-acct` of accounting around `npx jest` of three kernel test files, on a machine where others worked too. */
const JEST_RUN = readFileSync(join(__dirname, 'dump-acct-jest-run.txt'), 'utf8');

const treeOf = (text: string) => processTree(parseDumpAcct(text).records);

/**
 * A run in the shape of `npm test`'s, children before parents as accounting writes them: npm (100) → sh (101) →
 * npm-test.ts (102) → jest (200) → workers 201 and 202, each starting what the tests start.
 */
const RUN = [
  acctLine('ThreadPoolForeg', 301, 300, 500, 900),
  acctLine('expr', 302, 300, 1, 1),
  acctLine('chromium', 300, 201, 1000, 1000),
  acctLine('Socket Process', 311, 310, 200, 800),
  acctLine('JS Watchdog', 310, 201, 700, 900),
  acctLine('WebKitWebProces', 321, 320, 300, 800),
  acctLine('gmain', 320, 202, 100, 900),
  acctLine('Monitor Deflati', 332, 331, 400, 1500),
  acctLine('esbuild', 333, 331, 20, 1500),
  acctLine('node', 331, 330, 150, 1600),
  acctLine('sh', 330, 202, 0, 1600),
  acctLine('npm start', 350, 201, 60, 2000),
  acctLine('node', 341, 340, 50, 100),
  acctLine('sh', 340, 201, 0, 100),
  acctLine('GC Thread#0', 360, 201, 10, 20),
  acctLine('python3', 370, 202, 30, 40),
  acctLine('chromium', 401, 400, 10, 200, 'Sun Dec  6 15:46:00 2026'),
  acctLine('chromium', 400, 1, 90, 300, 'Sun Dec  6 15:46:00 2026'),
  acctLine('node', 201, 200, 20_000, 10_000),
  acctLine('node', 202, 200, 21_000, 10_000),
  acctLine('pool-2-thread-5', 210, 200, 5000, 10_100),
  acctLine('node', 200, 102, 2000, 10_200),
  acctLine('tsc', 380, 102, 1500, 1500),
  acctLine('node', 102, 101, 100, 10_300),
  acctLine('sh', 101, 100, 0, 10_300),
  acctLine('node', 100, 50, 30, 10_400),
  acctLine('bash', 50, 1, 0, 10_500),
  acctLine('chromium', 500, 1, 90, 300, 'Sun Dec  6 18:00:00 2026'),
].join('\n');

describe('a real jest run', () => {
  const tree = treeOf(JEST_RUN);
  const root = findRoot(tree) as number;
  const breakdown = cpuByKind(tree, root);

  test("the root is the outermost node above jest's main process (npx), the workers its two long-lived node children", () => {
    expect(breakdown.root).toEqual({ pid: 5098, comm: 'node', elapsed: 9.32 });
    expect(breakdown.jest).toEqual({ mainPid: 5129, workerPids: [5260, 5259] });
  });

  test("each process of the tree is counted once under its kind, other users' processes left out", () => {
    const kinds = Object.fromEntries(Object.entries(breakdown.kinds).filter(([, total]) => total.processes > 0));
    expect(kinds).toEqual({
      jestWorkers: { processes: 2, cpu: expect.closeTo(1.26, 5) },
      jestMain: { processes: 1, cpu: expect.closeTo(1.88, 5) },
      launcher: { processes: 2, cpu: expect.closeTo(0.6, 5) },
      // The setup's Java probes and the run's DynamoDB Local.
      dynamodbLocal: { processes: 3, cpu: expect.closeTo(4.15, 5) },
      commands: { processes: 3, cpu: expect.closeTo(0.36, 5) },
    });
    expect(breakdown.processes).toBe(11);
    expect(breakdown.cpu).toBeCloseTo(8.25, 5);
    expect(breakdown.commands).toEqual({ trees: 3, nodeProcesses: 3 });
  });
});

describe("a run in npm test's shape", () => {
  const tree = treeOf(RUN);
  const root = findRoot(tree) as number;
  const breakdown = cpuByKind(tree, root);

  test('a browser launch counts whole under its engine, known by the names in its subtree', () => {
    expect(breakdown.kinds.chromium).toEqual({ processes: 3, cpu: 15.01 });
    expect(breakdown.kinds.firefox).toEqual({ processes: 2, cpu: 9 });
    expect(breakdown.kinds.webkit).toEqual({ processes: 2, cpu: 4 });
  });

  test("an npm start is a command whose tree holds a JVM or is npm's own titled so; its esbuild counts as esbuild", () => {
    expect(breakdown.npmStarts).toEqual([5.5, 0.6]);
    expect(breakdown.kinds.npmStarts).toEqual({ processes: 4, cpu: 6.1 });
    expect(breakdown.kinds.esbuild).toEqual({ processes: 1, cpu: 0.2 });
  });

  test("a JVM jest's main process starts is the run's DynamoDB Local, one a worker starts is a test's own", () => {
    expect(breakdown.kinds.dynamodbLocal).toEqual({ processes: 1, cpu: 50 });
    expect(breakdown.kinds.testJvms).toEqual({ processes: 1, cpu: 0.1 });
  });

  test('the chain above the workers is split into launcher, jest main and workers; tsc is a static check; the rest is other by name', () => {
    expect(breakdown.root.pid).toBe(100);
    expect(breakdown.kinds.launcher).toEqual({ processes: 3, cpu: 1.3 });
    expect(breakdown.kinds.jestMain).toEqual({ processes: 1, cpu: 20 });
    expect(breakdown.kinds.jestWorkers).toEqual({ processes: 2, cpu: 410 });
    expect(breakdown.kinds.staticChecks).toEqual({ processes: 1, cpu: 15 });
    expect(breakdown.kinds.commands).toEqual({ processes: 2, cpu: 0.5 });
    expect(breakdown.otherNames).toEqual([{ comm: 'python3', processes: 1, cpu: 0.3 }]);
    expect(breakdown.cpu).toBeCloseTo(
      Object.values(breakdown.kinds).reduce((sum, kind) => sum + kind.cpu, 0),
      9,
    );
  });

  test('a process adopted by init while the root ran is reported apart with what it started and not counted; one from later is left out', () => {
    expect(breakdown.orphans).toEqual({ processes: 2, cpu: 1, byKind: [{ kind: 'Chromium', processes: 2, cpu: 1 }], counted: false });
    expect(breakdown.processes).toBe(24);
  });

  test('with adopted, what init adopted while the root ran counts under its kind', () => {
    const counted = cpuByKind(tree, root, { adopted: true });
    expect(counted.kinds.chromium).toEqual({ processes: 5, cpu: 16.01 });
    expect(counted.processes).toBe(26);
    expect(counted.cpu).toBeCloseTo(breakdown.cpu + 1, 9);
    expect(counted.orphans.counted).toBe(true);
  });

  test('a root named by pid is its last record, and its tree alone is counted', () => {
    const worker = recordOfPid(tree.records, 202) as number;
    const own = cpuByKind(tree, worker);
    expect(own.jest).toEqual({ mainPid: 202, workerPids: [] });
    // The worker, its WebKit, its npm start (esbuild included) and its python3.
    expect(own.cpu).toBeCloseTo(210 + 4 + 5.7 + 0.3, 9);
  });
});

test("jest in band: its process, below the wrappers that live as long, is the main one, and its DynamoDB Local the run's", () => {
  const tree = treeOf(
    [
      acctLine('pool-2-thread-5', 13, 12, 300, 500),
      acctLine('node', 14, 12, 10, 20),
      acctLine('node', 12, 11, 200, 960),
      acctLine('sh', 11, 10, 0, 970),
      acctLine('node', 10, 1, 50, 1000),
    ].join('\n'),
  );
  const breakdown = cpuByKind(tree, recordOfPid(tree.records, 10) as number);
  expect(breakdown.jest).toEqual({ mainPid: 12, workerPids: [] });
  expect(breakdown.kinds.jestMain).toEqual({ processes: 1, cpu: 2 });
  expect(breakdown.kinds.launcher).toEqual({ processes: 2, cpu: 0.5 });
  expect(breakdown.kinds.dynamodbLocal).toEqual({ processes: 1, cpu: 3 });
  expect(breakdown.kinds.commands).toEqual({ processes: 1, cpu: 0.1 });
  expect(breakdown.npmStarts).toEqual([]);
});

test('no jest main process: no root to find', () => {
  expect(findRoot(treeOf([acctLine('node', 2, 1, 0, 5), acctLine('node', 1, 0, 0, 9)].join('\n')))).toBeUndefined();
});

test('the median of an odd and an even count, and of none', () => {
  expect(median([9, 1, 5])).toBe(5);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(median([])).toBe(0);
});
