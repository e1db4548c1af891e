import { runScript } from '../support/commands';

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
  expect(run.stderr).toMatch(/^usage: npm run sdk:size/);
});
