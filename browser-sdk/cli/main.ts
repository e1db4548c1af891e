/**
 * The SDK package's bin (`npx @contacts-service/browser <command>`), for a
 * customer's CI: write debug ids into a build, and upload its source maps
 * with a secret key (docs/source-maps.md). Built into dist/sourcemaps-cli.js by
 * the SDK's build, self-contained: Node 18+ and nothing else.
 */
import { parseArgs } from 'node:util';
import { buildDir, CommandLineError, runInject, runUpload, type CommandResult } from './commands';

const USAGE = `usage:
  npx @contacts-service/browser inject <dir>
      writes a debug id into every built .js file under <dir> that has a source map, and into the map
  npx @contacts-service/browser upload --url <service URL> --key <dfsk_…> [--release <release>] [--url-prefix <~/path/>] <dir>
      uploads every map under <dir>: by debug id, or without one by release and URL path (<url-prefix><path under dir>)
      the key may also come from CONTACTS_SECRET_KEY

Each command prints one JSON object; upload exits 1, saying why, when a map was not uploaded.`;

async function main(argv: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { url: { type: 'string' }, key: { type: 'string' }, release: { type: 'string' }, 'url-prefix': { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command, dir, extra] = positionals;
  if (values.help) throw new CommandLineError('');
  if (extra !== undefined) throw new CommandLineError(`unexpected argument "${extra}"`);
  switch (command) {
    case 'inject':
      return runInject(buildDir(dir));
    case 'upload': {
      const key = values.key ?? process.env.CONTACTS_SECRET_KEY;
      if (!values.url) throw new CommandLineError("--url is required: the service's base URL (the stack's ApiUrl output)");
      if (!key) throw new CommandLineError('--key (or CONTACTS_SECRET_KEY) is required: a secret key of the factory');
      return runUpload(buildDir(dir), { url: values.url, key, release: values.release, urlPrefix: values['url-prefix'] });
    }
    default:
      throw new CommandLineError(command ? `unknown command "${command}"` : 'a command is required: inject or upload');
  }
}

main(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result.output)}\n`);
    process.exitCode = result.ok ? 0 : 1;
  },
  (error: unknown) => {
    if (error instanceof CommandLineError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`${error.message ? `error: ${error.message}\n` : ''}${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
    process.exitCode = 1;
  },
);
