import { takeBrowserSlot } from './browser-slots';

// Each file that drives browsers holds one of the run's two browser slots while it runs (./browser-slots.ts).
// Hooks of a setup file run before the file's own: the slot is taken before its engines launch, and given back as
// its last test ends, while it closes them (closing sends nothing a test waits for).
let release: (() => void) | undefined;
beforeAll(async () => {
  if (expect.getState().testPath?.includes('/test/browser/')) release = await takeBrowserSlot();
}, 600_000);
afterAll(() => release?.());
