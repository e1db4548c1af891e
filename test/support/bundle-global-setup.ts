import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApiAssets } from '../../local/bundle/api-asset';
import { prepareBundledApi } from '../../local/bundle/bundled-server';
import globalSetup from './global-setup';

declare global {
  var __bundleFolders: string[] | undefined;
}

/**
 * For jest.bundle.config.js: DynamoDB Local as usual, then `cdk synth`, and
 * the API functions' assets (contacts and ingest) copied with the local HTTP
 * adapter into a folder outside the project. startLocalApi() then serves that file from a plain
 * Node process instead of importing lambda/api/contacts-entry.ts.
 */
export default async function bundleGlobalSetup(): Promise<void> {
  await globalSetup();
  const started = Date.now();
  const assembly = mkdtempSync(join(tmpdir(), 'contacts-assembly-'));
  globalThis.__bundleFolders = [assembly];
  const assets = buildApiAssets(assembly);
  process.env.CONTACTS_API_BUNDLE_DIR = await prepareBundledApi(assets);
  globalThis.__bundleFolders.push(process.env.CONTACTS_API_BUNDLE_DIR);
  const { contacts, ingest } = assets;
  process.stdout.write(
    `API assets ${contacts.hash.slice(0, 12)}… (${contacts.bytes} bytes) and ingest ${ingest.hash.slice(0, 12)}… (${ingest.bytes} bytes) synthesized in ${Date.now() - started} ms, served from ${process.env.CONTACTS_API_BUNDLE_DIR} on Node.js ${process.version}\n`,
  );
}
