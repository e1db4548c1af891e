import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../local/processes';

/**
 * At most two files that drive browsers at once in `npm test`'s run, whatever
 * its number of workers. A browser closing a tab sends its last beacons while
 * the page's process gets the CPU: with three browser files at once, one
 * fresh-clone run of seven saw a Chromium tab lose them
 * (docs/development.md#where-the-time-goes). The other files take a third
 * worker; a browser file waits here for one of two slots, folders made with
 * an atomic mkdir in the run's folder (global setup). Outside such a run
 * (no folder named), there is no limit.
 */
export const BROWSER_SLOTS_VARIABLE = 'CONTACTS_TEST_BROWSER_SLOTS_DIR';
export const BROWSER_SLOTS = 2;

function tryTake(slot: string): boolean {
  try {
    mkdirSync(slot);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A slot whose holder died (a worker killed mid-file) is free again.
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(join(slot, 'pid'), 'utf8'));
    } catch {
      // Being made or being freed: its pid file is not there yet, or no longer.
    }
    if (Number.isInteger(holder) && !isRunning(holder)) rmSync(slot, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(slot, 'pid'), String(process.pid));
  return true;
}

/** Waits for a free slot and takes it; the function it answers gives it back. */
export async function takeBrowserSlot(folder = process.env[BROWSER_SLOTS_VARIABLE], everyMs = 200): Promise<() => void> {
  if (!folder) return () => undefined;
  for (;;) {
    for (let i = 0; i < BROWSER_SLOTS; i += 1) {
      const slot = join(folder, `slot-${i}`);
      if (tryTake(slot)) return () => rmSync(slot, { recursive: true, force: true });
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
