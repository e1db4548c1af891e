/**
 * Serves bundled API handler files over HTTP with the local adapter:
 *   node serve-asset.mjs <handler.mjs> [<prefix>=<handler.mjs> …]   (PORT, HOST from the environment)
 * The first file answers every path, like the contacts function behind the
 * stage's catch-all; each `<prefix>=<file>` takes the paths under its prefix
 * (`/ingest/v1/=ingest.mjs`), as its own API Gateway resource does on AWS.
 * Built by esbuild into one file (see bundled-server.ts) and run beside
 * copies of the assets, outside the project, so each handler can only use
 * what its bundle contains. Prints `listening <port>` once it accepts requests.
 */
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatchByPrefix } from '../dispatch';
import { createHttpAdapter, listen } from '../http-adapter';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const load = async (file: string): Promise<Handler> => ((await import(pathToFileURL(file).href)) as { handler: Handler }).handler;

async function main(): Promise<void> {
  const [file, ...mounts] = process.argv.slice(2);
  if (!file) throw new Error('usage: serve-asset <handler.mjs> [<prefix>=<handler.mjs> …]');
  const mounted = await Promise.all(
    mounts.map(async (mount) => {
      const at = mount.indexOf('=');
      if (at <= 0) throw new Error(`expected <prefix>=<handler.mjs>, got "${mount}"`);
      return { prefix: mount.slice(0, at), handler: await load(mount.slice(at + 1)) };
    }),
  );
  const server = createHttpAdapter(dispatchByPrefix(mounted, await load(file)));
  const port = await listen(server, Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  process.stdout.write(`listening ${port}\n`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
