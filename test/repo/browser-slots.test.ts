import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_SLOTS, takeBrowserSlot } from '../support/browser-slots';

// npm test's limit of two browser files at once (test/support/browser-slots.ts), with the run's folder given.

test('a third browser file waits until one of the two running gives its slot back', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'slots-test-'));
  const held = await Promise.all(Array.from({ length: BROWSER_SLOTS }, () => takeBrowserSlot(folder, 20)));
  let third = false;
  const waiting = takeBrowserSlot(folder, 20).then((release) => ((third = true), release));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(third).toBe(false);
  held[0]?.();
  const release = await waiting;
  expect(third).toBe(true);
  release();
  held[1]?.();
});

test('a slot whose holder died (a worker killed mid-file) is free again', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'slots-test-'));
  // Both slots held by a process that has exited since.
  const gone = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => gone.once('exit', resolve));
  for (let i = 0; i < BROWSER_SLOTS; i += 1) {
    mkdirSync(join(folder, `slot-${i}`));
    writeFileSync(join(folder, `slot-${i}`, 'pid'), String(gone.pid));
  }
  const release = await takeBrowserSlot(folder, 20);
  release();
});

test('outside npm test\'s run (no folder named) a browser file never waits', async () => {
  const release = await takeBrowserSlot(undefined);
  expect(release()).toBeUndefined();
});
