import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRunning, waitUntilGone } from '../../local/harness/processes';
import { assertNoProcessLeft, RUN_MARK } from '../support/leftover-processes';

/**
 * The check the global teardowns run at the end of the suite. Each test
 * marks its processes with a run id of its own, so the processes of the
 * real run (other test files, in other workers) are not looked at.
 */
describe('the check for processes a test run left behind', () => {
  test('fails naming a process of the run that still runs, and kills it', async () => {
    const run = randomUUID();
    const left = spawn('sleep', ['301'], { env: { ...process.env, [RUN_MARK]: run }, stdio: 'ignore' });
    const pid = left.pid as number;
    await expect(assertNoProcessLeft({ run, graceMs: 300 })).rejects.toThrow(
      new RegExp(`left 1 process\\(es\\) running \\(now killed\\):\\n  pid ${pid}: sleep 301$`),
    );
    expect(await waitUntilGone(pid, 10_000)).toBe(true);
  });

  test("finds the bundled asset's server by its folder (it runs with a bare environment)", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'contacts-asset-'));
    const left = spawn('sleep', ['302'], { cwd: folder, env: { PATH: process.env.PATH ?? '' }, stdio: 'ignore' });
    try {
      await expect(assertNoProcessLeft({ run: randomUUID(), folders: [folder], graceMs: 300 })).rejects.toThrow(new RegExp(`pid ${left.pid}: sleep 302`));
    } finally {
      left.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('passes when the processes of the run have exited within the grace period', async () => {
    const run = randomUUID();
    const brief = spawn('sleep', ['0.2'], { env: { ...process.env, [RUN_MARK]: run }, stdio: 'ignore' });
    expect(isRunning(brief.pid as number)).toBe(true);
    await expect(assertNoProcessLeft({ run, graceMs: 10_000 })).resolves.toBeUndefined();
  });
});
