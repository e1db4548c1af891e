import { findApiAsset } from '../../local/harness/bundle/api-asset';
import { keptAssembly } from '../../local/harness/bundle/assembly-cache';
import { prepareBundledApi } from '../../local/harness/bundle/bundled-server';

declare global {
  var __bundleFolders: string[] | undefined;
}

/** Where the prepared folder is handed to the bundled files' workers (test/support/bundled-env.ts picks it up). */
export const BUNDLED_API_DIR_VARIABLE = 'CONTACTS_BUNDLED_API_DIR';

/**
 * The bundled-asset files' own setup, after the run's DynamoDB Local is up:
 * the API functions' assets (contacts and ingest) of the sources' cloud
 * assembly (kept once per state of the sources, local/harness/bundle/assembly-cache.ts),
 * copied with the local HTTP adapter into a folder outside the project.
 * startLocalApi() then serves them from a plain Node process instead of
 * importing lambda/contacts/api/contacts-entry.ts. The folder's path goes to the
 * workers in BUNDLED_API_DIR_VARIABLE, which only the bundled project's setup
 * file turns into CONTACTS_API_BUNDLE_DIR: files of another project beside
 * them in the same run keep serving the sources.
 */
export default async function bundledProjectSetup(): Promise<void> {
  const started = Date.now();
  const assembly = keptAssembly();
  const assets = { contacts: findApiAsset(assembly.dir, 'contacts'), ingest: findApiAsset(assembly.dir, 'ingest') };
  const dir = await prepareBundledApi(assets);
  process.env[BUNDLED_API_DIR_VARIABLE] = dir;
  globalThis.__bundleFolders = [dir];
  const { contacts, ingest } = assets;
  process.stdout.write(
    `API assets ${contacts.hash.slice(0, 12)}… (${contacts.bytes} bytes) and ingest ${ingest.hash.slice(0, 12)}… (${ingest.bytes} bytes) ${assembly.reused ? 'from the kept assembly of these sources' : 'synthesized'} in ${Date.now() - started} ms, served from ${dir} on Node.js ${process.version}\n`,
  );
}
