import { spawnSync } from 'node:child_process';
import { CSV_COLUMNS } from '../../lambda/control/export-format';
import { commandLine, ROOT, jsonLines, runScript, runScriptInProcess } from '../support/commands';
import { loadControlHandler } from '../support/control';
import { referencePerson, uniqueEmail } from '../support/enrichment';
import { startFunctionUrl, TEST_CALLER_ARN, TEST_CREDENTIALS, TEST_REGION } from '../support/function-url';
import { endpoint, newTenant, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * `npm run --silent control -- …`, the control room's command line: on the
 * store `npm start` uses (here the run's DynamoDB Local, through
 * DYNAMODB_ENDPOINT), and through a signed function URL (--url). Its entry
 * file runs in this process (a Node process and a TypeScript load per call
 * were most of this file's time); one test runs it as its own process, and
 * the terminal test under `script`.
 */
const controlEnv = () => ({ DYNAMODB_ENDPOINT: endpoint(), PLATFORM_NAME: 'CLI Platform' });
const control = (...args: string[]) => runScriptInProcess('control', args, controlEnv());

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

async function factory(emails: (string | Record<string, unknown>)[]) {
  const tenant = await newTenant(api, 'cli');
  const contacts: Record<string, any>[] = [];
  for (const entry of emails) {
    const body = typeof entry === 'string' ? { email: entry } : entry;
    contacts.push((await tenant.upsert(body)).json.contact);
  }
  return { ...tenant, contacts, ids: contacts.map((contact) => contact.id as string).sort() };
}

describe("from a clean start: upsert, list, export, clear what enrichment filled, bulk run, a company's contacts", () => {
  test('the whole walk through, with the command line', async () => {
    const wrong = uniqueEmail('wrong-');
    await referencePerson(wrong, { title: 'Wrong Title', location: 'Lagos' });
    const { factoryId, ids, contacts, read } = await factory([
      { email: wrong, companyDomain: 'acme.example', company: 'Acme' },
      { email: uniqueEmail('two-'), companyDomain: 'acme.example' },
      { email: uniqueEmail('three-'), name: 'Three, "Quoted"' },
    ]);
    const target = contacts[0] as Record<string, any>;

    const list = await control('contacts', 'list', '--factory', factoryId);
    expect(list.status).toBe(0);
    expect(jsonLines(list.stdout).map((contact) => contact.id)).toEqual(ids);

    const refresh = await control('enrichment', 'refresh', '--factory', factoryId, '--email', wrong);
    expect(jsonLines(refresh.stdout.replace(/\n(?=[ }])/g, ''))[0]).toMatchObject({ outcome: 'enriched', found: { title: 'Wrong Title' } });

    const clear = await control('contacts', 'clear', '--factory', factoryId, '--contact', target.id, '--field', 'title', '--reason', 'customer says so');
    expect(clear.status).toBe(0);
    expect(JSON.parse(clear.stdout)).toMatchObject({
      cleared: ['title'],
      contact: { cleared: { title: { value: 'Wrong Title', reason: 'customer says so' } } },
    });

    const bulk = await control('enrichment', 'bulk', '--factory', factoryId);
    expect(JSON.parse(bulk.stdout)).toMatchObject({ factoryId, seen: 3, skipped: 1 });
    const after = (await read(target.id)).json.contact;
    expect(after.title).toBeUndefined();
    expect(after).toMatchObject({ location: 'Lagos', enriched: true });

    const refreshAgain = await control('enrichment', 'refresh', '--factory', factoryId, '--contact', target.id);
    expect(JSON.parse(refreshAgain.stdout)).toMatchObject({ ignored: ['title'] });
    expect((await read(target.id)).json.contact.title).toBeUndefined();
    const usage = JSON.parse((await control('enrichment', 'usage', '--factory', factoryId)).stdout);
    expect(usage).toEqual({ factoryId, periods: [expect.objectContaining({ billedPasses: 2 })] });

    const csv = await control('contacts', 'export', '--factory', factoryId, '--format', 'csv');
    expect(csv.status).toBe(0);
    const rows = csv.stdout.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe(CSV_COLUMNS.join(','));
    expect(rows).toHaveLength(4);
    expect(csv.stdout).toContain('"Three, ""Quoted"""');

    const companies = jsonLines((await control('companies', 'list', '--factory', factoryId)).stdout);
    expect(companies).toEqual([{ id: target.companyId, domain: 'acme.example', name: 'Acme', createdAt: target.createdAt }]);
    const linked = jsonLines((await control('companies', 'contacts', '--factory', factoryId, '--company', target.companyId)).stdout);
    expect(linked.map((contact) => contact.id).sort()).toEqual([contacts[0]?.id, contacts[1]?.id].sort());
    // The issues its people hit (test/control/who-is-affected.test.ts has some): none yet, so no line, and success.
    const hit = await control('companies', 'issues', '--factory', factoryId, '--company', target.companyId);
    expect([hit.status, hit.stdout]).toEqual([0, '']);
  }, 90_000);
});

describe('lists', () => {
  test('print one object per line and a cursor line when more remain; --cursor continues, --all follows every page', async () => {
    const { factoryId, ids } = await factory([uniqueEmail(), uniqueEmail(), uniqueEmail()]);
    const first = jsonLines((await control('contacts', 'list', '--factory', factoryId, '--limit', '2')).stdout);
    expect(first.slice(0, 2).map((contact) => contact.id)).toEqual(ids.slice(0, 2));
    expect(first[2]).toEqual({ cursor: expect.any(String) });
    const rest = jsonLines((await control('contacts', 'list', '--factory', factoryId, '--limit', '2', '--cursor', first[2]?.cursor)).stdout);
    expect(rest.map((contact) => contact.id)).toEqual(ids.slice(2));
    const all = await control('contacts', 'list', '--factory', factoryId, '--limit', '1', '--all');
    expect(jsonLines(all.stdout).map((contact) => contact.id)).toEqual(ids);
    expect(all.stderr).toBe(''); // no progress bar when stderr is not a terminal
  }, 30_000);

  test('--enriched and --updated-since filter', async () => {
    const known = uniqueEmail('k-');
    await referencePerson(known, { location: 'Accra' });
    const { factoryId, contacts } = await factory([known, uniqueEmail('p-')]);
    await control('enrichment', 'refresh', '--factory', factoryId, '--email', known);
    const enriched = jsonLines((await control('contacts', 'list', '--factory', factoryId, '--enriched', 'yes')).stdout);
    expect(enriched.map((contact) => contact.id)).toEqual([contacts[0]?.id]);
    const none = await control('contacts', 'list', '--factory', factoryId, '--updated-since', '2999-01-01');
    expect([none.status, none.stdout]).toEqual([0, '']);
  }, 30_000);
});

describe('show and export', () => {
  test('contacts show prints everything stored about the contact', async () => {
    const email = uniqueEmail();
    const { factoryId, contacts } = await factory([{ email, companyDomain: 'show.example' }]);
    const shown = JSON.parse((await control('contacts', 'show', '--factory', factoryId, '--email', email.toUpperCase())).stdout);
    expect(shown).toEqual({
      contact: contacts[0],
      company: { id: contacts[0]?.companyId, domain: 'show.example', name: 'show.example', createdAt: contacts[0]?.createdAt },
      passes: [],
      // The issues they were counted in (docs/report-issues.md#who-is-affected): none, as they sent no report.
      issues: [],
      reports: [],
    });
  }, 30_000);

  test('contacts export streams every contact as JSON lines, page after page', async () => {
    const { factoryId, ids } = await factory([uniqueEmail(), uniqueEmail(), uniqueEmail()]);
    const exported = await control('contacts', 'export', '--factory', factoryId, '--limit', '1');
    expect(exported.status).toBe(0);
    expect(jsonLines(exported.stdout).map((contact) => contact.id)).toEqual(ids);
  }, 30_000);

  test('contacts export draws a count on a terminal, on stderr', async () => {
    const { factoryId } = await factory([uniqueEmail(), uniqueEmail()]);
    // `script` runs the command on a pseudo-terminal, as a person at a terminal would.
    const command = `${commandLine('control').join(' ')} contacts export --factory ${factoryId} --limit 1`;
    const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DYNAMODB_ENDPOINT: endpoint() } });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\r2 contacts · [\d.]+ s/);
  }, 30_000);
});

describe('erasure and export of a person', () => {
  test('contacts erase prints one JSON object of what it removed; again, it finds nothing; export-person then answers nothing but the ids', async () => {
    const email = uniqueEmail('erase-');
    const { factoryId, contacts } = await factory([{ email, title: 'CTO' }]);
    const exported = await control('contacts', 'export-person', '--factory', factoryId, '--email', email);
    expect(exported.status).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ factoryId, contactId: contacts[0]?.id, contact: { email, title: 'CTO' }, passes: [], reports: [] });

    const erased = await control('contacts', 'erase', '--factory', factoryId, '--email', email);
    const again = await control('contacts', 'erase', '--factory', factoryId, '--contact', contacts[0]?.id);

    expect([erased.status, again.status]).toEqual([0, 0]);
    expect(JSON.parse(erased.stdout)).toMatchObject({ factoryId, contactId: contacts[0]?.id, erased: true, contact: true, events: 0, featureRequests: 0 });
    expect(JSON.parse(again.stdout)).toMatchObject({ erased: false, contact: false });
    expect(JSON.parse((await control('contacts', 'export-person', '--factory', factoryId, '--email', email)).stdout)).toEqual({
      factoryId,
      contactId: contacts[0]?.id,
      personKey: expect.stringMatching(/^person_/),
      passes: [],
      issues: [],
      reports: [],
    });
  }, 60_000);

  test.each([
    [['contacts', 'erase', '--factory', 'fac_x'], /name the person: --email <address> or --contact <ct_id>/],
    [['contacts', 'erase', '--factory', 'fac_x', '--email', 'a@example.com', '--contact', 'ct_0000000000000000'], /name the person/],
    [
      ['contacts', 'erase', '--factory', 'fac_x', '--email', 'a@example.com', '--person-key', `person_${'0'.repeat(32)}`],
      /name the person: --email <address>, --contact <ct_id> or --person-key <person_key>, one of them/,
    ],
    [
      ['contacts', 'export-person', '--factory', 'fac_x', '--person-key', `person_${'0'.repeat(32)}`],
      /name the person: --email <address> or --contact <ct_id>$/,
    ],
    [['contacts', 'erase', '--factory', 'fac_x', '--email', 'no-at-sign'], /^error: --email: /],
    [['contacts', 'erase', '--factory', 'fac_x', '--contact', 'ct_xyz'], /--contact must be a contact id/],
    [['contacts', 'erase', '--email', 'a@example.com'], /contacts erase needs --factory <fac_id>/],
    [['contacts', 'erase', '--factory', 'fac_x', '--email', 'a@example.com', '--field', 'name'], /contacts erase does not take --field/],
    [['contacts', 'export-person', '--factory', 'fac_x', '--email', 'a@@example.com'], /^error: --email: /],
  ])('refuses %j with exit code 2, never echoing the address', async (args, message) => {
    const result = await control(...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr.split('\n')[0]).not.toMatch(/no-at-sign|a@@example/);
  });
});

describe('errors', () => {
  test('an unknown contact is a one-line error with exit code 1', async () => {
    const result = await control('contacts', 'show', '--factory', 'fac_cli_none', '--contact', 'ct_0000000000000000');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('error: no contact ct_0000000000000000 in fac_cli_none\n');
  });

  test.each([
    [[], /say what to do/],
    [['contacts', 'delete', '--factory', 'fac_x'], /unknown command "contacts delete"/],
    [['contacts', 'list', '--factory', 'fac_x', '--enriched', 'maybe'], /--enriched must be yes or no/],
    [['contacts', 'list', '--factory', 'fac_x', '--updated-since', 'last week'], /--updated-since must be an ISO 8601 date/],
    [['contacts', 'list', '--factory', 'fac_x', '--format', 'csv'], /contacts list does not take --format/],
    [['contacts', 'clear', '--factory', 'fac_x', '--contact', 'ct_0000000000000000', '--field', 'email'], /field "email" cannot be cleared/],
    [['contacts', 'list', '--factory', 'fac_x', '--region', 'eu-west-1'], /--region goes with --stack/],
    [['contacts', 'list', '--factory', 'fac_x', '--url', 'ftp://x'], /--url must be a function URL/],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const result = await control(...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).toMatch(/^usage: npm run --silent control/m);
  });

  // Every other call here runs the entry file in this process; this one end to end, as a user runs it.
  test('as its own process, refuses an unknown command with exit code 2 and the usage', async () => {
    const result = await runScript('control', ['contacts', 'delete', '--factory', 'fac_x'], controlEnv());
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/unknown command "contacts delete"/);
    expect(result.stderr).toMatch(/^usage: npm run --silent control/m);
  });
});

describe('keys, through the control-room function', () => {
  test('creates a secret key the API then accepts, lists it without its secret, and revokes it: the API then refuses it', async () => {
    const factoryId = `fac_cli_keys_${Date.now().toString(36)}`;
    const created = await control('keys', 'create', '--factory', factoryId, '--rate-limit', '120');
    expect(created.status).toBe(0);
    const key = JSON.parse(created.stdout) as Record<string, any>;
    expect(key).toMatchObject({
      factoryId,
      type: 'secret',
      rateLimit: 120,
      key: expect.stringMatching(/^dfsk_/),
      keyId: expect.stringMatching(/^key_[0-9a-f]{16}$/),
    });
    const upsert = (secret: string) =>
      api.request('POST', '/api/v1/contacts', { headers: { Authorization: `Bearer ${secret}` }, body: { email: uniqueEmail('key-') } });
    expect((await upsert(key.key)).status).toBe(201);

    const listed = await control('keys', 'list', '--factory', factoryId);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ keyId: key.keyId, type: 'secret', status: 'active' })]);
    expect(listed.stdout).not.toContain(key.key);

    const revoked = await control('keys', 'revoke', '--factory', factoryId, '--key', key.keyId);
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ keyId: key.keyId, status: 'revoked' });
    expect((await upsert(key.key)).status).toBe(401);
  });

  test('creates a publishable key bound to the origins given, normalized', async () => {
    const factoryId = `fac_cli_pk_${Date.now().toString(36)}`;
    const created = await control(
      'keys',
      'create',
      '--factory',
      factoryId,
      '--type',
      'publishable',
      '--origin',
      'HTTPS://Shop.Example:443',
      '--origin',
      'http://localhost:5173',
    );
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      type: 'publishable',
      key: expect.stringMatching(/^dfpk_/),
      origins: ['https://shop.example', 'http://localhost:5173'],
    });
  });

  test('a key of another factory is not revoked: exit code 1 and why', async () => {
    const owner = `fac_cli_owner_${Date.now().toString(36)}`;
    const key = JSON.parse((await control('keys', 'create', '--factory', owner)).stdout) as Record<string, any>;
    const result = await control('keys', 'revoke', '--factory', `${owner}_other`, '--key', key.keyId);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`no key ${key.keyId} in ${owner}_other`));
  });

  test.each([
    [['keys', 'create', '--factory', 'fac_x', '--type', 'publishable'], /needs at least one --origin/],
    [['keys', 'create', '--factory', 'fac_x', '--origin', 'https://a.example'], /--origin is only for --type publishable/],
    [['keys', 'create', '--factory', 'fac_x', '--type', 'publishable', '--origin', '*'], /--origin: /],
    [['keys', 'create', '--factory', 'fac_x', '--rate-limit', 'lots'], /--rate-limit must be a whole number/],
    [['keys', 'revoke', '--factory', 'fac_x'], /keys revoke needs --key/],
    [['keys', 'revoke', '--factory', 'fac_x', '--key', 'dfsk_secret'], /--key must be a key id/],
    [['keys', 'list', '--factory', 'fac_x', '--origin', 'https://a.example'], /keys list does not take --origin/],
  ])('refuses %j with exit code 2, before any call', async (args, message) => {
    const result = await control(...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(message);
  });
});

describe('against a deployed control room (--url; --stack reads the URL from the stack)', () => {
  let url: Awaited<ReturnType<typeof startFunctionUrl>>;
  beforeAll(async () => {
    url = await startFunctionUrl(loadControlHandler({ LOG_LEVEL: 'SILENT' }).handler);
  });
  afterAll(() => url.close());
  const signedAs = (credentials: typeof TEST_CREDENTIALS) => ({
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: '',
    AWS_PROFILE: '',
  });

  test("signs each call with the operator's AWS credentials; the function records the caller it verified", async () => {
    const { factoryId, contacts } = await factory([{ email: uniqueEmail(), title: 'Remote Wrong' }]);
    const id = contacts[0]?.id as string;
    const remote = (...args: string[]) => runScriptInProcess('control', [...args, '--url', url.url, '--region', TEST_REGION], signedAs(TEST_CREDENTIALS));
    const listed = await remote('contacts', 'list', '--factory', factoryId);
    expect([listed.status, jsonLines(listed.stdout).map((contact) => contact.id)]).toEqual([0, [id]]);
    const cleared = JSON.parse((await remote('contacts', 'clear', '--factory', factoryId, '--contact', id, '--field', 'title')).stdout);
    expect(cleared.contact.cleared.title).toMatchObject({ value: 'Remote Wrong', by: TEST_CALLER_ARN });
    expect(url.calls.map((body) => JSON.parse(body).operation)).toEqual(['contacts.list', 'contacts.clear']);
  }, 30_000);

  test('issues and revokes a key through the signed function URL: both calls reach the function', async () => {
    const factoryId = `fac_cli_remote_${Date.now().toString(36)}`;
    const remote = (...args: string[]) => runScriptInProcess('control', [...args, '--url', url.url, '--region', TEST_REGION], signedAs(TEST_CREDENTIALS));
    const before = url.calls.length;
    const created = await remote('keys', 'create', '--factory', factoryId);
    expect(created.status).toBe(0);
    const key = JSON.parse(created.stdout) as Record<string, any>;
    expect(key).toMatchObject({ factoryId, key: expect.stringMatching(/^dfsk_/) });
    const revoked = await remote('keys', 'revoke', '--factory', factoryId, '--key', key.keyId);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ keyId: key.keyId, status: 'revoked' });
    expect(url.calls.slice(before).map((body) => JSON.parse(body).operation)).toEqual(['keys.create', 'keys.revoke']);
  }, 30_000);

  test('a call the function URL refuses (wrong credentials) is a one-line error with exit code 1', async () => {
    const result = await runScriptInProcess(
      'control',
      ['contacts', 'list', '--factory', 'fac_x', '--url', url.url, '--region', TEST_REGION],
      signedAs({ accessKeyId: TEST_CREDENTIALS.accessKeyId, secretAccessKey: 'not-the-secret' }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('error: the control room answered 403: Forbidden\n');
  });
});
