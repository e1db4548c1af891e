import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debugIdSnippet } from '../../lambda/ingest/sourcemaps/debug-id-snippet';
import { runScript, runScriptInProcess, serverEnv, startServer } from '../support/commands';
import { bundlerShapes, esbuildApp, fingerprint, stopBuilds } from '../support/builds';
import { newFactoryId } from '../support/local-api';
import { sha256Hex } from '../support/sourcemaps';

afterAll(stopBuilds);

/** The sourcemaps command, its entry file in this process; the first call runs it as its own process, as `npm run` does. */
const sourcemaps = (args: string[], env: NodeJS.ProcessEnv = {}) => runScriptInProcess('sourcemaps', args, env);

describe('npm run sourcemaps -- inject', () => {
  test('writes one debug id into the esbuild-minified script and its map; a second run changes no byte', async () => {
    const dist = esbuildApp();
    const first = await runScript('sourcemaps', ['inject', dist]);
    expect(first.status).toBe(0);
    const injected = JSON.parse(first.stdout);
    expect(injected).toMatchObject({ injected: 1, unchanged: 0 });
    const [{ debugId }] = injected.files;
    expect(debugId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const script = readFileSync(join(dist, 'assets', 'main.js'), 'utf8');
    // The id comes before the sourceMappingURL comment, which stays last.
    expect(script).toMatch(new RegExp(`//# debugId=${debugId}\\n//# sourceMappingURL=main\\.js\\.map\\n$`));
    expect(JSON.parse(readFileSync(join(dist, 'assets', 'main.js.map'), 'utf8'))).toMatchObject({ debugId, debug_id: debugId });

    const before = fingerprint(dist);
    const second = await sourcemaps(['inject', dist]);
    expect(JSON.parse(second.stdout)).toMatchObject({ injected: 0, unchanged: 1 });
    expect(fingerprint(dist)).toEqual(before);
  }, 90_000);

  test("puts the browser SDK's registration line on top of the script and shifts the map's mappings by one line to match", async () => {
    const dist = esbuildApp();
    const original = readFileSync(join(dist, 'assets', 'main.js'), 'utf8');
    const originalMap = JSON.parse(readFileSync(join(dist, 'assets', 'main.js.map'), 'utf8'));
    const [{ debugId }] = JSON.parse((await sourcemaps(['inject', dist])).stdout).files;
    const [first, ...rest] = readFileSync(join(dist, 'assets', 'main.js'), 'utf8').split('\n');
    expect(first).toBe(debugIdSnippet(debugId));
    // Below the line, the script as built: each line where the shifted map says.
    expect(rest.join('\n').startsWith(original.replace(/\/\/# sourceMappingURL=.*\n?$/, ''))).toBe(true);
    expect(JSON.parse(readFileSync(join(dist, 'assets', 'main.js.map'), 'utf8')).mappings).toBe(`;${originalMap.mappings}`);
  }, 90_000);

  test('the same build injected in another folder gets the same id: ids come from the content', async () => {
    const [a, b] = [esbuildApp(), esbuildApp()];
    const ids = await Promise.all([a, b].map(async (dist) => JSON.parse((await sourcemaps(['inject', dist])).stdout).files[0].debugId));
    expect(ids[0]).toBe(ids[1]);
  }, 90_000);

  test('finds each map as Vite and webpack write them (beside, hidden, in a folder of its own) and skips an inline map', async () => {
    const dist = bundlerShapes();
    const result = JSON.parse((await sourcemaps(['inject', dist])).stdout);
    expect(result.files.map((file: { path: string; map: string }) => [file.path, file.map])).toEqual([
      ['assets/index-4f2a9c1b.js', 'assets/index-4f2a9c1b.js.map'],
      ['main.3c5e.js', 'main.3c5e.js.map'],
      ['static/js/chunk.js', 'maps/chunk.js.map'],
    ]);
    expect(result.withoutMap).toEqual(['inline.js']);
    const before = fingerprint(dist);
    expect(JSON.parse((await sourcemaps(['inject', dist])).stdout)).toMatchObject({ injected: 0, unchanged: 3 });
    expect(fingerprint(dist)).toEqual(before);
  }, 90_000);

  test('a missing folder is a usage error, exit 2', async () => {
    const result = await sourcemaps(['inject', join(tmpdir(), 'no-such-build-folder')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a folder');
  }, 60_000);
});

describe('npm run sourcemaps -- upload, against npm start', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let env: Awaited<ReturnType<typeof serverEnv>>;
  let serversDir: string;
  const maps = () => join(env.CONTACTS_DATA_DIR, 's3', 'contacts-source-maps', 'maps');

  beforeAll(async () => {
    serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
    env = await serverEnv(serversDir);
    server = await startServer(env);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(serversDir, { recursive: true, force: true });
  });

  const upload = (args: string[]) =>
    sourcemaps(['upload', ...args], { CONTACTS_SERVERS_DIR: serversDir, CONTACTS_DATA_DIR: env.CONTACTS_DATA_DIR, DYNAMODB_ENDPOINT: '' });

  test("uploads an injected build's maps into the embedded store under the data folder, leaving no key behind; a repeat uploads nothing", async () => {
    const factoryId = newFactoryId('maps');
    const dist = esbuildApp();
    const { files } = JSON.parse((await sourcemaps(['inject', dist])).stdout);
    const first = await upload(['--factory', factoryId, dist]);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ uploaded: 1, alreadyStored: 0 });
    expect(existsSync(join(maps(), factoryId, 'debug-id', `${files[0].debugId}._S3rver_object`))).toBe(true);
    // The key it issued for the upload is gone: keys list shows no key the user never made.
    const keys = await runScriptInProcess('keys', ['list', '--factory', factoryId], {
      CONTACTS_SERVERS_DIR: serversDir,
      CONTACTS_DATA_DIR: env.CONTACTS_DATA_DIR,
      DYNAMODB_ENDPOINT: '',
    });
    expect([keys.status, JSON.parse(keys.stdout)]).toEqual([0, []]);
    const again = await upload(['--factory', factoryId, dist]);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ uploaded: 0, alreadyStored: 1 });
  }, 60_000);

  test('a 20 MB map goes up through the presigned PUT and is stored byte for byte', async () => {
    const factoryId = newFactoryId('maps');
    const dist = esbuildApp();
    const [{ debugId, map }] = JSON.parse((await sourcemaps(['inject', dist])).stdout).files;
    // A map as big as a large app's: its sources' text padded to 20 MB (deterministic, still a valid map).
    const mapFile = join(dist, map);
    const json = JSON.parse(readFileSync(mapFile, 'utf8'));
    const size = Buffer.byteLength(JSON.stringify(json));
    json.sourcesContent[0] += `\n${'// a long vendored comment\n'.repeat(Math.ceil((20_000_000 - size) / 27))}`;
    writeFileSync(mapFile, JSON.stringify(json));
    const bytes = statSync(mapFile).size;
    expect(bytes).toBeGreaterThanOrEqual(20_000_000);
    const result = await upload(['--factory', factoryId, '--release', '2026.11.27', dist]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uploaded: 1, alreadyStored: 0 });
    const stored = join(maps(), factoryId, 'debug-id', `${debugId}._S3rver_object`);
    expect(statSync(stored).size).toBe(bytes);
    expect(sha256Hex(readFileSync(stored))).toBe(sha256Hex(readFileSync(mapFile)));
  }, 90_000);

  test("without debug ids, --release uploads each map under the release and its script's URL path", async () => {
    const factoryId = newFactoryId('maps');
    const result = await upload(['--factory', factoryId, '--release', '2026.11.27', esbuildApp()]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).maps).toEqual([
      expect.objectContaining({ file: 'assets/main.js', ref: { release: '2026.11.27', path: '~/assets/main.js' }, outcome: 'uploaded' }),
    ]);
    expect(existsSync(join(maps(), factoryId, 'release', '2026.11.27', `${encodeURIComponent('~/assets/main.js')}._S3rver_object`))).toBe(true);
  }, 60_000);

  test('exits 1 saying why when a map has no debug id and no release is given', async () => {
    const result = await upload(['--factory', newFactoryId('maps'), esbuildApp()]);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      uploaded: 0,
      error: expect.stringContaining('assets/main.js has a map but no debug id: run inject first, or pass --release'),
    });
  }, 60_000);

  test("exits 1 saying why when a map is not the script's (built again after inject): the server refused it", async () => {
    const factoryId = newFactoryId('maps');
    const dist = esbuildApp();
    await sourcemaps(['inject', dist]);
    const mapFile = join(dist, 'assets', 'main.js.map');
    const map = JSON.parse(readFileSync(mapFile, 'utf8'));
    writeFileSync(mapFile, JSON.stringify({ ...map, debugId: '00000000-0000-4000-8000-000000000000', debug_id: '00000000-0000-4000-8000-000000000000' }));
    const result = await upload(['--factory', factoryId, dist]);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatch(/assets\/main\.js\.map \(for assets\/main\.js\) was refused: 422: .*belongs to another file/);
    expect(existsSync(join(maps(), factoryId))).toBe(false);
  }, 60_000);

  test('npm start said where its S3 store keeps the maps, and the store stops when npm start stops', async () => {
    const [, endpoint] = /maps kept at \S+ \((http:\/\/127\.0\.0\.1:\d+)\)/.exec(server.output.stdout) ?? [];
    expect(endpoint).toBeDefined();
    // It answers as S3 does: an unsigned request is refused.
    const unsigned = await fetch(`${endpoint}/contacts-source-maps/none`);
    expect([unsigned.status, await unsigned.text()]).toEqual([403, expect.stringContaining('<Code>AccessDenied</Code>')]);
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${endpoint}/contacts-source-maps/none`)).rejects.toThrow();
  }, 60_000);
});
