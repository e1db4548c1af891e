import { findApiAsset } from '../../local/bundle/api-asset';
import { keptAssembly } from '../../local/bundle/assembly-cache';
import { prepareBundledApi } from '../../local/bundle/bundled-server';
import globalSetup from './global-setup';

declare global {
  var __bundleFolders: string[] | undefined;
}

/**
 * For jest.bundle.config.js: DynamoDB Local as usual, then `cdk synth` (the
 * sources' kept assembly when `npm test` or an earlier run already made it:
 * local/bundle/assembly-cache.ts), and the API functions' assets (contacts
 * and ingest) copied with the local HTTP adapter into a folder outside the
 * project. startLocalApi() then serves that file from a plain
 * Node process instead of importing lambda/api/contacts-entry.ts.
 */
export default async function bundleGlobalSetup(): Promise<void> {
  await globalSetup();
  const started = Date.now();
  const assembly = keptAssembly();
  const assets = { contacts: findApiAsset(assembly.dir, 'contacts'), ingest: findApiAsset(assembly.dir, 'ingest') };
  process.env.CONTACTS_API_BUNDLE_DIR = await prepareBundledApi(assets);
  globalThis.__bundleFolders = [process.env.CONTACTS_API_BUNDLE_DIR];
  const { contacts, ingest } = assets;
  process.stdout.write(
    `API assets ${contacts.hash.slice(0, 12)}… (${contacts.bytes} bytes) and ingest ${ingest.hash.slice(0, 12)}… (${ingest.bytes} bytes) ${assembly.reused ? 'from the kept assembly of these sources' : 'synthesized'} in ${Date.now() - started} ms, served from ${process.env.CONTACTS_API_BUNDLE_DIR} on Node.js ${process.version}\n`,
  );
}
