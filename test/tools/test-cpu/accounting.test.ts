import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentsOf, parseDumpAcct } from '../../../tools/test-cpu/accounting';
import { acctLine } from './acct-lines';

/** `dump-acct` of accounting around `npx jest` of three kernel test files, on a machine where others worked too. */
const JEST_RUN = readFileSync(join(__dirname, 'dump-acct-jest-run.txt'), 'utf8');

test("dump-acct's lines become records in exit order, times in seconds, start in seconds, exit code kept", () => {
  const { records, skipped } = parseDumpAcct(JEST_RUN);
  expect(skipped).toBe(0);
  expect(records).toHaveLength(15);
  expect(records.map((record) => record.index)).toEqual([...records.keys()]);
  // The run's DynamoDB Local, stopped by SIGTERM (143), named after its last thread.
  expect(records.find((record) => record.pid === 5196)).toEqual({
    index: 10,
    comm: 'pool-2-thread-5',
    pid: 5196,
    ppid: 5129,
    cpu: 2.52,
    elapsed: 6.25,
    started: Date.UTC(2026, 11, 6, 15, 45, 33) / 1000,
    exitCode: 143,
  });
});

test('a line that is not a v3 record with numbers and a start is left out and counted', () => {
  const good = acctLine('node', 10, 1, 5, 9);
  const text = [good, 'garbage', good.replace('|v3|', '|v2|'), good.replace('   5.00', 'five'), good.replace(/\|[^|]*$/, '|yesterday'), ''].join('\n');
  const { records, skipped } = parseDumpAcct(text);
  expect(records).toHaveLength(1);
  expect(skipped).toBe(4);
});

test('a child hangs under the parent alive when it exited, though the pid was used again', () => {
  const { records } = parseDumpAcct(
    [
      acctLine('cat', 11, 5, 0, 1), // child of the first process 5
      acctLine('bash', 5, 1, 0, 2),
      acctLine('grep', 12, 5, 0, 1), // child of the second process 5
      acctLine('node', 5, 1, 0, 3),
      acctLine('sleep', 13, 77, 0, 1), // its parent outlived the recording
    ].join('\n'),
  );
  expect(parentsOf(records)).toEqual([1, undefined, 3, undefined, undefined]);
});
