import fc from 'fast-check';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { contactId } from '../../lambda/contacts/domain/contact-id';
import { normalizeEmail } from '../../lambda/kernel/email';
import { issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * The package a customer installs: `npm pack` in client/ (which builds it),
 * installed offline into a scratch project outside this repository, imported
 * by name and called against the local API; its types checked there with
 * the strict Node ESM resolution a customer's project may use.
 */
const ROOT = join(__dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

let api: LocalApi;
let scratch: string;
let packed: { filename: string; files: { path: string }[] };
beforeAll(async () => {
  api = await startLocalApi();
  scratch = mkdtempSync(join(tmpdir(), 'contacts-client-package-'));
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: join(ROOT, 'client'),
    env: npmEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  packed = (JSON.parse(output.slice(output.indexOf('['))) as (typeof packed)[])[0] as typeof packed;
  const app = join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-package-lock', join(scratch, packed.filename)], { cwd: app, env: npmEnv, stdio: 'pipe' });
}, 180_000);
afterAll(async () => {
  await api.close();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs `source` as an ES module of the scratch project with `input` as its
 * argument; returns what it printed, parsed. Asynchronously: the API it
 * calls runs in this process.
 */
async function runInApp(source: string, input: unknown): Promise<any> {
  const app = join(scratch, 'app');
  writeFileSync(join(app, 'main.mjs'), source);
  const env = { PATH: process.env.PATH ?? '' };
  const { stdout } = await promisify(execFile)(process.execPath, ['main.mjs', JSON.stringify(input)], { cwd: app, env, encoding: 'utf8' });
  return JSON.parse(stdout);
}

const USE_THE_PACKAGE = `
import { ContactsClient, contactId } from 'contacts-service-client';
const { baseUrl, apiKey, factoryId, emails } = JSON.parse(process.argv[2]);
const client = new ContactsClient({ apiKey, baseUrl });
const upserted = await client.upsertContact({ email: 'Packed@Example.com', name: 'Packed' });
const byId = await client.getContact(upserted.contact.id);
const byEmail = await client.findContactByEmail('PACKED@example.com');
const missing = await client.findContactByEmail('nobody@example.com');
const offline = await contactId(factoryId, 'packed@EXAMPLE.com');
const ids = await Promise.all(emails.map((email) => contactId(factoryId, email).catch((error) => error.name)));
console.log(JSON.stringify({ upserted, byId, byEmail, missing, offline, ids }));
`;

describe('the packed client package', () => {
  test('holds only the built files, its README and package.json', () => {
    expect(packed.files.map((file) => file.path).sort()).toEqual(expect.arrayContaining(['README.md', 'dist/index.d.ts', 'dist/index.js', 'package.json']));
    expect(packed.files.filter((file) => !/^(README\.md|package\.json|dist\/[a-z-]+\.(js|d\.ts))$/.test(file.path))).toEqual([]);
  });

  test('installed in a scratch project, it upserts, reads and finds against the local API, and computes ids as the service does', async () => {
    const factoryId = newFactoryId('package');
    const { key } = await issueKey(factoryId);
    // Addresses with international host names: the bundle's IDNA step is the web shim of node:url.
    const emails = fc.sample(fc.oneof(fc.emailAddress(), fc.constantFrom('Jürgen@Müller.de', 'x@xn--mller-kva.de', 'a@１.com', 'ünï@código.pt', 'bad@@x.io')), {
      numRuns: 200,
      seed: 13,
    });
    const result = await runInApp(USE_THE_PACKAGE, { baseUrl: api.baseUrl, apiKey: key, factoryId, emails });
    expect(result.upserted).toEqual({ created: true, contact: expect.objectContaining({ email: 'packed@example.com', name: 'Packed' }) });
    expect(result.byId).toEqual(result.upserted.contact);
    expect(result.byEmail).toEqual(result.upserted.contact);
    expect(result.missing).toBeNull();
    expect(result.offline).toBe(result.upserted.contact.id);
    expect(result.ids).toEqual(
      emails.map((email) => {
        const check = normalizeEmail(email);
        return check.ok ? contactId(factoryId, check.email) : 'InvalidEmailError';
      }),
    );
  }, 60_000);

  test('its types check in a strict TypeScript project with Node ESM resolution', () => {
    const app = join(scratch, 'app');
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] },
        files: ['typed.ts'],
      }),
    );
    writeFileSync(
      join(app, 'typed.ts'),
      `import { ContactsApiError, ContactsClient, type Contact, type UpsertContactInput } from 'contacts-service-client';
const client = new ContactsClient({ apiKey: 'dfsk_x', baseUrl: 'http://localhost:3000', onRetry: (event) => console.log(event.attempt, event.delayMs) });
const input: UpsertContactInput = { email: 'a@example.com', source: 'ads', name: null };
// @ts-expect-error source is one of four values
const wrong: UpsertContactInput = { email: 'a@example.com', source: 'web' };
export async function signup(): Promise<Contact | null> {
  try {
    const { contact, created }: { contact: Contact; created: boolean } = await client.upsertContact(input);
    return created ? contact : await client.getContact(contact.id);
  } catch (error) {
    if (error instanceof ContactsApiError) console.log(error.status, error.requestId);
    throw error;
  }
}
export { wrong };
`,
    );
    expect(() => execFileSync(process.execPath, [TSC, '-p', app], { cwd: app, encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
