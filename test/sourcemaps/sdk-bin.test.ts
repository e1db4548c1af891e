import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/commands';
import { esbuildApp, stopBuilds } from '../support/builds';
import { issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';
import { testMapStore } from '../support/sourcemaps';

/**
 * The SDK package's bin as a customer's CI gets it: `npm pack` in browser-sdk/ (which builds it), unpacked in a
 * folder outside the repository, run by plain node from there, against the service over HTTP with a secret key.
 */
let scratch: string;
let bin: string;
/** The packed file, as a customer's repository keeps it. */
let tarball: string;
let manifest: { bin?: Record<string, string> };
let api: LocalApi;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'contacts-sdk-bin-'));
  const packing = spawnSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: join(ROOT, 'browser-sdk'), encoding: 'utf8' });
  if (packing.status !== 0) throw new Error(`npm pack failed:\n${packing.stdout}${packing.stderr}`);
  const [packed] = JSON.parse(packing.stdout.slice(packing.stdout.indexOf('\n[') + 1)) as { filename: string }[];
  if (!packed) throw new Error(`npm pack printed no package:\n${packing.stdout}`);
  tarball = join(scratch, packed.filename);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', scratch], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  manifest = JSON.parse(readFileSync(join(scratch, 'package', 'package.json'), 'utf8')) as typeof manifest;
  bin = join(scratch, 'package', manifest.bin?.['contacts-sourcemaps'] ?? 'missing');
  api = await startLocalApi();
}, 120_000);

afterAll(async () => {
  await stopBuilds();
  await api?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The bin in a process of its own, waited for without blocking: the API it calls answers from this process. */
function run(...args: string[]): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: scratch, env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (status) => resolve({ status, stdout }));
  });
}

test('the package names its bin, a node script that imports nothing but Node itself', () => {
  expect(manifest.bin).toEqual({ 'contacts-sourcemaps': './dist/sourcemaps-cli.js' });
  const text = readFileSync(bin, 'utf8');
  expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
  const imported = [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]);
  expect(imported.filter((name) => !name?.startsWith('node:'))).toEqual([]);
});

test('run from outside the repository, it injects a build and uploads its maps with the key; a repeat is a no-op', async () => {
  const factoryId = newFactoryId('bin');
  const { key } = await issueKey(factoryId);
  const dist = esbuildApp();
  const injected = await run('inject', dist);
  expect(injected.status).toBe(0);
  const { files } = JSON.parse(injected.stdout) as { files: { debugId: string }[] };
  const uploaded = await run('upload', '--url', api.baseUrl, '--key', key, dist);
  expect(uploaded.status).toBe(0);
  expect(JSON.parse(uploaded.stdout)).toMatchObject({ uploaded: 1, alreadyStored: 0 });
  expect(await testMapStore().get(factoryId, { kind: 'debugId', debugId: files[0]?.debugId ?? '' })).toMatchObject({ bytes: expect.any(Number) });
  expect(JSON.parse((await run('upload', '--url', api.baseUrl, '--key', key, dist)).stdout)).toMatchObject({ uploaded: 0, alreadyStored: 1 });
});

test("the CI recipe as docs/source-maps.md writes it: npx runs the bin from the packed file in a customer's repository, nothing installed, offline", async () => {
  const repository = mkdtempSync(join(tmpdir(), 'customer-repo-'));
  try {
    const dist = esbuildApp();
    // A cache of its own and no registry: the file is all npx needs (the package has no dependencies).
    const env = { PATH: process.env.PATH ?? '', HOME: repository, npm_config_cache: join(repository, '.npm'), npm_config_offline: 'true' };
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npx', ['--yes', '--package', tarball, 'contacts-sourcemaps', 'inject', dist], { cwd: repository, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect([result.status, result.stderr]).toEqual([0, expect.any(String)]);
    expect(JSON.parse(result.stdout)).toMatchObject({ injected: 1, files: [expect.objectContaining({ debugId: expect.any(String) })] });
  } finally {
    rmSync(repository, { recursive: true, force: true });
  }
}, 60_000);

test("an unknown key stops the upload with exit 1 and the service's reason", async () => {
  const dist = esbuildApp();
  await run('inject', dist);
  const result = await run('upload', '--url', api.baseUrl, '--key', 'dfsk_not-a-key-of-anyone', dist);
  expect(result.status).toBe(1);
  expect(JSON.parse(result.stdout)).toEqual({ uploaded: 0, error: expect.stringContaining('the service refused the key (401)') });
});
