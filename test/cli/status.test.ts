import { RELEASED_FUNCTION_OUTPUTS } from '../../lib/outputs';
import { describedRelease } from '../../lib/release-commit';
import { startAwsStandIn, type StandInState } from '../support/aws-stand-in';
import { runScriptInProcess } from '../support/commands';

/**
 * `npm run status -- --stack`: what runs where, read through the real SDK
 * clients from a stand-in of CloudFormation and Lambda (test/support/aws-stand-in.ts).
 */
const OLD = '1'.repeat(40);
const NEW = '2'.repeat(40);
const described = (commit: string) => describedRelease('Contacts tally: counts events', commit);

/** A stack whose seven functions all run version 8 of commit NEW, which it last deployed. */
function settledStack(): StandInState {
  const outputs: Record<string, string> = {};
  const functions: StandInState['functions'] = {};
  for (const [fn, output] of Object.entries(RELEASED_FUNCTION_OUTPUTS)) {
    outputs[output] = `Status-${fn}`;
    functions[`Status-${fn}`] = { live: '8', descriptions: { '7': described(OLD), '8': described(NEW), $LATEST: described(NEW) } };
  }
  return { stackName: 'Status', stackStatus: 'UPDATE_COMPLETE', outputs, functions };
}

async function status(state: StandInState, args: string[] = ['--stack', 'Status', '--region', 'eu-west-1']) {
  const aws = await startAwsStandIn(state);
  try {
    const env = {
      AWS_ENDPOINT_URL: aws.endpoint,
      AWS_ACCESS_KEY_ID: 'AKIATESTSTATUS000001',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_SESSION_TOKEN: '',
      AWS_PROFILE: '',
    };
    return { ...(await runScriptInProcess('status', args, env)), requests: aws.requests };
  } finally {
    await aws.close();
  }
}

test('a settled stack: every function runs one version of the commit it last deployed, and the answer names that commit', async () => {
  const result = await status(settledStack());
  expect(result.status).toBe(0);
  const answer = JSON.parse(result.stdout);
  expect(answer).toMatchObject({ stack: 'Status', status: 'UPDATE_COMPLETE', commit: NEW, missing: [], notes: [] });
  expect(answer.functions).toHaveLength(7);
  expect(answer.functions[0]).toEqual({
    function: 'api',
    name: 'Status-api',
    running: [{ version: '8', weight: 1, commit: NEW, published: '2026-11-20T10:00:00.000+0000' }],
    deployed: NEW,
    settled: true,
  });
  // Reads only: one DescribeStacks, and per function its alias, $LATEST and the live version.
  expect(result.requests.filter((line) => line.startsWith('POST'))).toHaveLength(1);
  expect(result.requests.filter((line) => line.includes('/aliases/live'))).toHaveLength(7);
});

test('a canary under way: both versions with their shares, the commit of each, and a note saying so', async () => {
  const state = settledStack();
  state.functions['Status-api'] = { live: '7', weights: { '8': 0.1 }, descriptions: { '7': described(OLD), '8': described(NEW), $LATEST: described(NEW) } };
  const answer = JSON.parse((await status(state)).stdout);
  expect(answer.commit).toBeNull();
  expect(answer.functions[0].running).toEqual([
    { version: '7', weight: 0.9, commit: OLD, published: expect.any(String) },
    { version: '8', weight: 0.1, commit: NEW, published: expect.any(String) },
  ]);
  expect(answer.notes).toContain(`api: a release is under way: version 8 (commit ${NEW}) takes 10 % beside version 7`);
});

test('an alias moved back by hand: live runs the older commit while the stack last deployed the newer, and the note says what to deploy', async () => {
  const state = settledStack();
  state.functions['Status-api'] = { live: '7', descriptions: { '7': described(OLD), '8': described(NEW), $LATEST: described(NEW) } };
  const answer = JSON.parse((await status(state)).stdout);
  expect(answer.functions[0]).toMatchObject({ running: [{ version: '7', commit: OLD }], deployed: NEW, settled: false });
  expect(answer.notes).toEqual([
    `api: live runs version 7 (commit ${OLD}) while the stack last deployed commit ${NEW}: the alias was moved by hand; deploy commit ${OLD} to make the stack agree (docs/runbook.md#going-back-to-an-earlier-version)`,
    'the functions run 2 different commits',
  ]);
});

test('a stack deployed before some outputs existed: the functions it names, and a note for the others', async () => {
  const state = settledStack();
  delete state.outputs.TallyFunctionName;
  const answer = JSON.parse((await status(state)).stdout);
  expect([answer.functions.length, answer.missing, answer.commit]).toEqual([6, ['tally'], null]);
  expect(answer.notes[0]).toMatch(/^no output names tally: the stack was deployed before it had them/);
});

test.each([
  [[], /--stack <name> is required/],
  [['--stack', 'Status', 'extra'], /unexpected argument "extra"/],
  [['--region', 'eu-west-1'], /--region goes with --stack/],
])('refuses %j with exit code 2, before any call', async (args, message) => {
  const result = await status(settledStack(), args);
  expect([result.status, result.requests]).toEqual([2, []]);
  expect(result.stderr.split('\n')[0]).toMatch(message);
});

test('a function it cannot read is a one-line error naming it, exit code 1', async () => {
  const state = settledStack();
  delete state.functions['Status-tally'];
  const result = await status(state);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^error: could not read function Status-tally \(tally\): ResourceNotFoundException/);
});
