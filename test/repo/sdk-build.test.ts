import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSdk, SDK_BUILD_VARIABLE } from '../support/sdk-build';

// The run's one `npm run sdk:build` (test/support/sdk-build.ts), seen from a file that is not the first to ask.
// Each case sets up the folder as the first file would have left it, so no build runs here.

let folder: string;
const before = process.env[SDK_BUILD_VARIABLE];
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sdk-build-test-'));
  process.env[SDK_BUILD_VARIABLE] = folder;
  // Another file has claimed the build.
  mkdirSync(join(folder, 'claim'));
});
afterAll(() => {
  if (before === undefined) delete process.env[SDK_BUILD_VARIABLE];
  else process.env[SDK_BUILD_VARIABLE] = before;
});

test("a file that finds the run's build done reads it instead of building again", async () => {
  writeFileSync(join(folder, 'built'), JSON.stringify({ script: 'the script', esm: 'the module' }));
  await expect(buildSdk()).resolves.toEqual({ script: 'the script', esm: 'the module' });
});

test('a file that asks while another file builds gets the build once it is done', async () => {
  const build = buildSdk();
  setTimeout(() => writeFileSync(join(folder, 'built'), JSON.stringify({ script: 'late script', esm: 'late module' })), 300);
  await expect(build).resolves.toEqual({ script: 'late script', esm: 'late module' });
});

test("a file that finds the run's build failed fails with that build's output", async () => {
  writeFileSync(join(folder, 'failed'), 'npm run sdk:build failed:\nsrc/index.ts(1,1): error TS1005');
  await expect(buildSdk()).rejects.toThrow(/made by another test file\) failed:\nnpm run sdk:build failed:\nsrc\/index.ts\(1,1\): error TS1005/);
});
