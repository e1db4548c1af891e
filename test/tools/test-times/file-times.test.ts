import { fileTimes } from '../../../tools/test-times/file-times';

const ROOT = '/work/checkout';

test("a checkout's files come longest first across projects, each project totalled, other checkouts' and malformed entries left out", () => {
  const sources = {
    [`${ROOT}/test/cli/start.test.ts`]: [1, 88_800],
    [`${ROOT}/test/lambda/kernel/email.test.ts`]: [0, 300],
    '/elsewhere/test/cli/start.test.ts': [0, 999_000],
    [`${ROOT}/test/odd.test.ts`]: [1, 'soon'],
  };
  const browsers = { [`${ROOT}/test/browser/sdk/transport.test.ts`]: 128_900 };
  const { files, projects } = fileTimes([sources, browsers, { '/elsewhere/x.test.ts': [0, 5] }], `${ROOT}/`);
  expect(files).toEqual([
    { path: 'test/browser/sdk/transport.test.ts', ms: 128_900, failed: false },
    { path: 'test/cli/start.test.ts', ms: 88_800, failed: false },
    { path: 'test/lambda/kernel/email.test.ts', ms: 300, failed: true },
  ]);
  expect(projects).toEqual([
    { files: 1, ms: 128_900, example: 'test/browser/sdk/transport.test.ts' },
    { files: 2, ms: 89_100, example: 'test/cli/start.test.ts' },
  ]);
});
