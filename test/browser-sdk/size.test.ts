import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runScript } from '../support/commands';

/** Size is a feature: `npm run sdk:size` fails above 5 KB gzipped, and `npm test` with it. */
test('the one-file build stays within its 5 KB gzipped budget (npm run sdk:size)', async () => {
  const run = await runScript('sdk:size', []);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const [, gzipped] = /([\d,]+) bytes gzipped/.exec(run.stdout) ?? [];
  expect(Number(gzipped?.replace(/,/g, ''))).toBeLessThanOrEqual(5 * 1024);
  expect(run.stdout).toMatch(/budget 5,120 bytes: PASS/);
});

test('npm run sdk:size takes no arguments, and says so', async () => {
  const run = await runScript('sdk:size', ['--budget', '1']);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^error: unexpected argument "--budget"\n\nusage: npm run sdk:size/);
});

test('npm run sdk:size -- --help prints its usage and measures nothing', async () => {
  const run = await runScript('sdk:size', ['--help']);
  expect(run).toEqual({ status: 0, stdout: 'usage: npm run sdk:size   (no arguments)\n', stderr: '' });
});

test("the size the docs state is the build's, to the tenth of a KB (README, docs/browser-sdk.md)", async () => {
  const run = await runScript('sdk:size', []);
  const [, minified, gzipped] = /([\d,]+) bytes minified, ([\d,]+) bytes gzipped/.exec(run.stdout) ?? [];
  const kb = (bytes: string | undefined) => `${(Number(bytes?.replace(/,/g, '')) / 1024).toFixed(1)} KB`;
  const docs = readFileSync(join(ROOT, 'docs', 'browser-sdk.md'), 'utf8');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const stated = [...`${docs}\n${readme}`.matchAll(/(\d+\.\d) KB gzipped/g)].map((match) => `${match[1]} KB`);
  expect(stated.length).toBeGreaterThanOrEqual(3);
  expect(new Set(stated)).toEqual(new Set([kb(gzipped)]));
  expect(docs).toContain(`(${kb(minified)} minified;`);
});
