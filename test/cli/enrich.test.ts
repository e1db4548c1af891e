import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueEmail } from '../support/enrichment';
import { spawnSync } from 'node:child_process';
import { commandLine, ROOT, runScript, runScriptInProcess } from '../support/commands';
import { bearer, endpoint, issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * `npm run enrich` (and `control` for an erasure) against the run's DynamoDB
 * Local, the entry files in this process; the first test runs enrich as its
 * own process, as `npm run` does, and the progress bar test under `script`.
 */
const cliEnv = () => ({ DYNAMODB_ENDPOINT: endpoint(), PLATFORM_NAME: 'CLI Platform' });
const enrich = (...args: string[]) => runScriptInProcess('enrich', args, cliEnv());
const enrichProcess = (...args: string[]) => runScript('enrich', args, cliEnv());
const control = (...args: string[]) => runScriptInProcess('control', args, cliEnv());

let api: LocalApi;
let dir: string;
beforeAll(async () => {
  api = await startLocalApi();
  dir = mkdtempSync(join(tmpdir(), 'enrich-cli-'));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

async function factoryWith(emails: string[]) {
  const factoryId = newFactoryId('cli');
  const auth = bearer((await issueKey(factoryId)).key);
  const ids: string[] = [];
  for (const email of emails) {
    ids.push((await api.request('POST', '/api/v1/contacts', { headers: auth, body: { email } })).json.contact.id);
  }
  return { factoryId, auth, ids };
}

describe('npm run enrich -- load-dataset', () => {
  test('loads a JSON Lines file and reports loaded and invalid lines', async () => {
    const a = uniqueEmail();
    const file = join(dir, 'vendor.jsonl');
    const lines = [
      `\ufeff${JSON.stringify({ email: a, title: 'Chemist' })}`, // a byte order mark first, as some exports write
      'not json',
      '',
      JSON.stringify({ name: 'no email' }),
      JSON.stringify({ email: a.toUpperCase(), title: 'Physicist' }),
    ];
    writeFileSync(file, lines.join('\n'));
    const result = await enrichProcess('load-dataset', file);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      lines: 5,
      loaded: 1,
      duplicates: 1,
      suppressed: 0,
      invalid: 2,
      problems: [
        { line: 2, problem: 'not valid JSON' },
        { line: 4, problem: 'no "email" string' },
      ],
    });
  });

  test('after a person is erased, a load leaves them out, loads the others, and says on stderr that it left one out', async () => {
    const [erased, kept] = [uniqueEmail('erased-'), uniqueEmail('kept-')];
    const file = join(dir, 'erasure.jsonl');
    writeFileSync(file, JSON.stringify({ email: erased, title: 'Chemist' }));
    expect((await enrich('load-dataset', file)).status).toBe(0);
    const erasure = await control('contacts', 'erase', '--factory', newFactoryId('cli'), '--email', erased);
    expect(JSON.parse(erasure.stdout)).toMatchObject({ erased: true, contact: false, vendorRecord: true });

    writeFileSync(
      file,
      [
        { email: erased.toUpperCase(), title: 'Physicist' },
        { email: kept, title: 'Engineer' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const result = await enrich('load-dataset', file);

    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ lines: 2, loaded: 1, duplicates: 0, suppressed: 1, invalid: 0 });
    expect(result.stderr.trim()).toBe('left out 1 person of the file: erased on request, they stay out of every load (docs/privacy.md#the-vendors-record)');
    expect(result.stderr.toLowerCase()).not.toContain(erased);
  }, 60_000);

  test('a file with no valid record prints its summary and exits 1, with one line on stderr that says why', async () => {
    const file = join(dir, 'broken-export.jsonl');
    writeFileSync(file, ['not json', JSON.stringify({ name: 'no email' })].join('\n'));
    const result = await enrich('load-dataset', file);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ lines: 2, loaded: 0, suppressed: 0, invalid: 2 });
    expect(result.stderr.trim()).toBe(`error: no valid record in ${file} (2 invalid lines: see "problems")`);
  });

  test('an empty file is not a load: exit 1, and stderr says the file is empty', async () => {
    const file = join(dir, 'empty.jsonl');
    writeFileSync(file, '\n\n');
    const result = await enrich('load-dataset', file);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ lines: 2, loaded: 0, invalid: 0 });
    expect(result.stderr.trim()).toBe(`error: no valid record in ${file}: the file is empty or holds only blank lines`);
  });

  test('a missing file is a one-line error', async () => {
    const result = await enrich('load-dataset', join(dir, 'nope.jsonl'));
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(`error: no file at ${join(dir, 'nope.jsonl')}`);
  });
});

describe('npm run enrich -- --factory … --all / --contact / --email, and usage', () => {
  test('--all enriches the factory and prints the JSON summary; usage shows the billed passes', async () => {
    const known = [uniqueEmail(), uniqueEmail()];
    const file = join(dir, 'known.jsonl');
    writeFileSync(file, known.map((email) => JSON.stringify({ email, location: 'Nairobi' })).join('\n'));
    expect((await enrich('load-dataset', file)).status).toBe(0);
    const { factoryId, auth, ids } = await factoryWith([...known, uniqueEmail()]);

    const result = await enrich('--factory', factoryId, '--all');
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(''); // no progress bar when stderr is not a terminal
    expect(JSON.parse(result.stdout)).toMatchObject({ factoryId, seen: 3, skipped: 0, enriched: 2, misses: 1, billed: 2 });

    const read = await api.request('GET', `/api/v1/contacts/${ids[0]}`, { headers: auth });
    expect(read.json.contact).toMatchObject({ location: 'Nairobi', enriched: true, enrichment: { provider: 'CLI Platform' } });

    const again = JSON.parse((await enrich('--factory', factoryId, '--all')).stdout);
    expect(again).toMatchObject({ seen: 3, skipped: 2, billed: 0 });

    const usage = JSON.parse((await enrich('usage', '--factory', factoryId)).stdout);
    expect(usage).toEqual({ factoryId, periods: [expect.objectContaining({ billedPasses: 2 })] });
  }, 30_000);

  test('--all draws a progress bar when stderr is a terminal', async () => {
    const { factoryId } = await factoryWith([uniqueEmail(), uniqueEmail()]);
    // `script` runs the command on a pseudo-terminal, as a person at a terminal would.
    const command = `${commandLine('enrich').join(' ')} --factory ${factoryId} --all`;
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DYNAMODB_ENDPOINT: endpoint() },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/█+ 100% 2\/2 contacts · 0 enriched, 2 misses, 0 skipped/);
    expect(run.stdout).toMatch(/"seen": 2/);
  }, 30_000);

  test('--contact and --email refresh one contact', async () => {
    const email = uniqueEmail();
    const file = join(dir, 'one.jsonl');
    writeFileSync(file, JSON.stringify({ email, title: 'Engineer' }));
    await enrich('load-dataset', file);
    const { factoryId, ids } = await factoryWith([email]);
    const byId = JSON.parse((await enrich('--factory', factoryId, '--contact', ids[0] as string)).stdout);
    expect(byId).toMatchObject({ factoryId, contactId: ids[0], outcome: 'enriched', billed: true });
    const byEmail = JSON.parse((await enrich('--factory', factoryId, '--email', email.toUpperCase())).stdout);
    expect(byEmail).toMatchObject({ contactId: ids[0], outcome: 'complete', billed: true });
  }, 30_000);

  test('an unknown contact is a one-line error', async () => {
    const result = await enrich('--factory', newFactoryId('cli'), '--contact', 'ct_0000000000000000');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^error: no contact ct_0000000000000000 in fac_/);
  });

  test.each([
    [['--all'], /--factory <fac_id> is required/],
    [['--factory', 'fac_x'], /say what to enrich/],
    [['--factory', 'fac_x', '--all', '--contact', 'ct_0000000000000000'], /say what to enrich/],
    [['--factory', 'fac_x', '--contact', 'ada'], /--contact must be a contact id/],
    [['--factory', 'fac_x', '--email', 'ada'], /--email: email must contain exactly one/],
    [['load-dataset'], /load-dataset needs the file/],
    [['reindex'], /unknown command "reindex"/],
    [['--factory', 'fac_x', '--all', '--factory', 'fac_y'], /--factory is given twice/],
    [['--factory', 'fac_x', '--all', '--region', 'eu-west-1'], /--region goes with --stack/],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const result = await enrich(...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).toMatch(/^usage: npm run --silent enrich/m);
  });
});
