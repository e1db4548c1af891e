import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { freePort } from '../../../local/harness/ports';
import { ROOT } from '../../support/commands';
import { launchEngine, type Engine } from '../../../tools/browsers/engines';
import { localService, storedWhen, withMessage } from '../../support/browser-sdk';
import { until } from '../../support/until';
import { issuePublishableKey, newFactoryId } from '../../support/local-api';

/**
 * The package as published: `npm pack` in browser-sdk/ (which builds it
 * first), unpacked into a scratch folder outside the repository, and used
 * from there by a plain page both ways the docs show: the one-file build
 * that package.json's "unpkg" names, in a <script> tag, and the ESM entry
 * imported by name. Each page's event is stored.
 */
interface Manifest {
  name: string;
  type: string;
  unpkg: string;
  types: string;
  exports: Record<string, { types: string; default: string } | string>;
  dependencies?: Record<string, string>;
}

let scratch: string;
let server: Server;
let origin: string;
let service: Awaited<ReturnType<typeof localService>>;
let browser: Engine;
let manifest: Manifest;
let packedFiles: string[];

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'contacts-sdk-scratch-'));
  const packing = spawnSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: join(ROOT, 'browser-sdk'), encoding: 'utf8' });
  if (packing.status !== 0) throw new Error(`npm pack failed:\n${packing.stdout}${packing.stderr}`);
  // npm prints the prepack build's output before the JSON.
  const [packed] = JSON.parse(packing.stdout.slice(packing.stdout.indexOf('\n[') + 1)) as { filename: string; files: { path: string }[] }[];
  if (!packed) throw new Error(`npm pack printed no package:\n${packing.stdout}`);
  packedFiles = packed.files.map((file) => file.path);
  const untar = spawnSync('tar', ['-xzf', join(scratch, packed.filename), '-C', scratch], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  manifest = JSON.parse(readFileSync(join(scratch, 'package', 'package.json'), 'utf8')) as Manifest;

  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(scratch, path);
    if (!file.startsWith(scratch) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  origin = `http://localhost:${port}`;
  // Chromium only: packing and loading are the same in every engine; the SDK's behaviour runs in all three (capture, noise, transport).
  [service, browser] = await Promise.all([localService(), launchEngine('chromium')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  await service?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the packed package holds its builds and declarations, names the one-file build in "unpkg", and has no dependencies', () => {
  expect(manifest).toMatchObject({ name: '@contacts-service/browser', type: 'module', unpkg: './dist/contacts-ingest.min.js', types: './dist/index.d.ts' });
  expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  expect(manifest.dependencies).toBeUndefined();
  expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/contacts-ingest.min.js']));
  const declarations = readFileSync(join(scratch, 'package', 'dist', 'index.d.ts'), 'utf8');
  for (const name of ['init', 'captureException', 'captureMessage', 'submitFeatureRequest', 'flush']) expect(declarations).toContain(name);
});

test('a scratch page outside the repository loads the "unpkg" file with a <script> tag, and its error is stored', async () => {
  const factoryId = newFactoryId('sdkpack');
  const { key } = await issuePublishableKey(factoryId, [origin]);
  writeFileSync(
    join(scratch, 'script-tag.html'),
    `<!doctype html><meta charset="utf-8"><script src="/package/${manifest.unpkg.replace(/^\.\//, '')}"></script>
<script>ContactsIngest.init({ key: ${JSON.stringify(key)}, baseUrl: ${JSON.stringify(service.baseUrl)} });</script>
<script>setTimeout(function () { throw new Error('from the packed script'); });</script>`,
  );
  const page = await browser.newTab();
  await page.goto(`${origin}/script-tag.html`);
  expect(await page.evaluate('Object.keys(window.ContactsIngest).sort()')).toEqual([
    'captureException',
    'captureMessage',
    'flush',
    'init',
    'submitFeatureRequest',
  ]);
  const events = await storedWhen(factoryId, "the page's error", (found) => found.length >= 1);
  expect(withMessage(events, 'Error: from the packed script')).toHaveLength(1);
  await page.close();
});

test("a scratch page imports the package's ESM entry by name (as a bundler would), and its message is stored", async () => {
  const factoryId = newFactoryId('sdkesm');
  const { key } = await issuePublishableKey(factoryId, [origin]);
  writeFileSync(
    join(scratch, 'module.html'),
    `<!doctype html><meta charset="utf-8"><script type="module">
import { init, captureMessage, flush } from '/package/${(manifest.exports['.'] as { default: string }).default.replace(/^\.\//, '')}';
init({ key: ${JSON.stringify(key)}, baseUrl: ${JSON.stringify(service.baseUrl)} });
window.sent = captureMessage('from the packed module');
window.flushed = flush();
</script>`,
  );
  const page = await browser.newTab();
  await page.goto(`${origin}/module.html`);
  await until('the module to run', async () => ((await page.evaluate('window.flushed !== undefined')) ? true : undefined));
  expect(await page.evaluate('window.flushed')).toBe(true);
  expect(await page.evaluate('typeof window.ContactsIngest')).toBe('undefined');
  const events = await storedWhen(factoryId, "the page's message", (found) => found.length >= 1);
  expect(events).toEqual([expect.objectContaining({ message: 'from the packed module', eventId: await page.evaluate('window.sent') })]);
  await page.close();
});
