/**
 * Source maps for this repository's users: npm run --silent sourcemaps -- <command>
 *
 *   inject <dir>                                            debug ids into a build's scripts and maps
 *   upload --factory fac_… [--release <r>] <dir>            its maps to the running `npm start`
 *
 * The same code as the SDK package's bin (browser-sdk/cli), which a
 * customer's CI runs with `npx`. Without --key, upload issues a secret key of
 * the factory through the store (as `keys create` does), uses it for this
 * upload only, and removes it at the end: no key to copy, and none left in
 * `keys list` that the user never made.
 */
import { KeyAdmin } from '../../../lambda/infrastructure/store/keys/key-admin';
import { buildDir, CommandLineError, runInject, runUpload, type CommandResult } from '../../../browser-sdk/cli/commands';
import { factoryIdArg, parseCommandLine, runCommand, UsageError } from '../../harness/cli';
import { CHOSEN_DATA_DIR, LOCAL_DATA_DIR } from '../../harness/paths';
import { runningServers } from '../../harness/server-registry';
import { SetupError } from '../../harness/setup-error';
import { connectStore } from '../../harness/store';

const USAGE = `usage: npm run --silent sourcemaps -- <command> [options]

  inject <dir>                                   write a debug id into every built .js file under <dir> that has a
                                                 source map, and into the map (a second run changes nothing)
  upload --factory <fac_id> [--release <release>] [--url-prefix <~/path/>] <dir>
                                                 upload every map under <dir> for that factory to the running npm
                                                 start: by debug id, or without one by release and URL path
                                                 (<url-prefix, default ~/><path under dir>)
    --url <base URL> --key <dfsk_…>              upload to another service (a deployed stack's ApiUrl) with its key

Each command prints one JSON object; upload exits 1, saying why, when a map was not uploaded.
For example, after a build into dist/: inject dist, then upload --factory fac_demo dist.
Without --key, upload issues a secret key of the factory for this upload and removes it when done.`;

/** The API of the running npm start this command works with (the one on CONTACTS_DATA_DIR when set). */
function runningApi(): string {
  const servers = runningServers().filter((server) => !CHOSEN_DATA_DIR || server.dataDir === LOCAL_DATA_DIR);
  if (servers.length === 0) throw new SetupError('npm start is not running: start it (the maps go to its store), or pass --url and --key for a deployed stack');
  if (servers.length > 1)
    throw new SetupError(`${servers.length} npm start servers run: choose one with CONTACTS_DATA_DIR=<its data folder>, or pass --url and --key`);
  return (servers[0] as { api: string }).api;
}

async function upload(values: Record<string, string | boolean | undefined>, dir: string): Promise<CommandResult> {
  const factoryId = factoryIdArg(values.factory as string | undefined);
  const options = { release: values.release as string | undefined, urlPrefix: values['url-prefix'] as string | undefined };
  if (values.url !== undefined) {
    if (typeof values.key !== 'string') throw new UsageError('--url needs --key <dfsk_…>: a secret key of the factory on that service');
    return runUpload(dir, { ...options, url: values.url as string, key: values.key });
  }
  const url = runningApi();
  if (typeof values.key === 'string') return runUpload(dir, { ...options, url, key: values.key });
  const store = await connectStore({}, ['keys']);
  const admin = new KeyAdmin(store.doc, store.tables.keys);
  try {
    const { key, keyId } = await admin.create({ factoryId, type: 'secret' });
    try {
      return await runUpload(dir, { ...options, url, key });
    } finally {
      await admin.remove(keyId, factoryId);
    }
  } finally {
    await store.close();
  }
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    factory: { type: 'string' },
    release: { type: 'string' },
    'url-prefix': { type: 'string' },
    url: { type: 'string' },
    key: { type: 'string' },
  });
  const [command, dir, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  let result: CommandResult;
  try {
    if (command === 'inject') {
      if (Object.values(values).some((value) => value !== undefined)) throw new UsageError('inject takes only the build folder');
      result = runInject(buildDir(dir));
    } else if (command === 'upload') {
      result = await upload(values, buildDir(dir));
    } else {
      throw new UsageError(command ? `unknown command "${command}": inject or upload` : 'a command is required: inject or upload');
    }
  } catch (error) {
    if (error instanceof CommandLineError) throw new UsageError(error.message);
    throw error;
  }
  process.stdout.write(`${JSON.stringify(result.output)}\n`);
  if (!result.ok) process.exitCode = 1;
});
