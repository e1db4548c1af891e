import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../local/harness/ports';
import { rawCall } from '../support/control-room';
import { runScript, startScript } from '../support/commands';
import { loadControlHandler } from '../support/control';
import { startFunctionUrl, TEST_CALLER_ARN, TEST_CREDENTIALS, TEST_REGION } from '../support/function-url';
import { endpoint, newTenant, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * `npm run control-room`: what it prints, how it stops, how it refuses a bad
 * command line, and that with --url every operation goes to the function
 * URL, signed with the operator's credentials (the function records the
 * verified caller, not a local name).
 */
const URL_LINE = /^Control room: open (http:\/\/127\.0\.0\.1:(\d+))\/login\?token=([A-Za-z0-9_-]{43})\n$/;

test.each([
  [['--port', 'abc'], '--port must be a whole number from 1 to 65535, got "abc"'],
  [['--region', 'eu-west-1'], '--region goes with --stack <name>'],
  [['--stack', 's', '--url', 'https://x.lambda-url.eu-west-1.on.aws/'], 'give --stack or --url, not both'],
  [['extra'], 'unexpected argument "extra"'],
])('%j is refused with exit code 2 and the usage', async (args, message) => {
  const result = await runScript('control-room', args, { DYNAMODB_ENDPOINT: endpoint() });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stderr).toContain('usage: npm run control-room');
});

/** The URLs of the control rooms registered for alert links (local/harness/control-rooms.ts). */
const registered = () => {
  const dir = process.env.CONTACTS_SERVERS_DIR as string;
  return readdirSync(dir)
    .filter((file) => file.startsWith('control-room-'))
    .map((file) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { url: string }).url);
};

test.each(['SIGTERM', 'SIGINT'] as const)(
  'prints exactly one line with the URL to open once it answers, registers its address for alert links, and stops on %s, unregistered',
  async (signal) => {
    const port = await freePort();
    const run = startScript('control-room', { DYNAMODB_ENDPOINT: endpoint() }, /Control room: open \S+\n/, 60_000, ['--port', String(port)]);
    await run.started;
    expect(run.output.stdout).toMatch(URL_LINE);
    expect(URL_LINE.exec(run.output.stdout)?.[2]).toBe(String(port));
    expect((await rawCall(port, 'GET', '/', { host: `127.0.0.1:${port}` })).status).toBe(401);
    expect(registered()).toContain(`http://127.0.0.1:${port}`);
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
    expect(registered()).not.toContain(`http://127.0.0.1:${port}`);
  },
  90_000,
);

describe('with --url: the deployed function, signed', () => {
  let api: LocalApi;
  let url: Awaited<ReturnType<typeof startFunctionUrl>>;
  beforeAll(async () => {
    api = await startLocalApi();
    url = await startFunctionUrl(loadControlHandler({ LOG_LEVEL: 'SILENT' }).handler);
  });
  afterAll(async () => {
    await url?.close();
    await api?.close();
  });

  test('every page and action is an operation sent to the function URL, and the function records the verified caller', async () => {
    const tenant = await newTenant(api, 'crurl');
    const contact = (await tenant.upsert({ email: 'remote@example.com', title: 'Wrong' })).json.contact as Record<string, string>;
    const port = await freePort();
    const run = startScript(
      'control-room',
      {
        AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
        AWS_SESSION_TOKEN: '',
        AWS_PROFILE: '',
        DYNAMODB_ENDPOINT: '',
      },
      /Control room: open \S+\n/,
      60_000,
      ['--port', String(port), '--url', url.url, '--region', TEST_REGION],
    );
    try {
      const [, secret] = URL_LINE.exec((await run.started).input as string)?.slice(2) ?? [];
      const headers = { host: `127.0.0.1:${port}`, cookie: `control_room_${port}=${secret}` };
      const page = await rawCall(port, 'GET', `/f/${tenant.factoryId}/contacts`, headers);
      expect([page.status, page.text.includes('remote@example.com')]).toEqual([200, true]);
      const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.text)?.[1] as string;
      const body = JSON.stringify({ operation: 'contacts.clear', factoryId: tenant.factoryId, contactId: contact.id, fields: ['title'], reason: 'remote' });
      const cleared = await rawCall(
        port,
        'POST',
        '/api/operation',
        { ...headers, origin: `http://127.0.0.1:${port}`, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body,
      );
      expect(cleared.status).toBe(200);
      expect(JSON.parse(cleared.text).contact.cleared.title).toMatchObject({ value: 'Wrong', by: TEST_CALLER_ARN, reason: 'remote' });
      // The room asks first whether the factory exists (it has a key), then the page's own operation.
      expect(url.calls.map((call) => JSON.parse(call).operation)).toEqual(['keys.list', 'contacts.list', 'contacts.clear']);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 90_000);
});
