/**
 * Serves a bundled API handler file over HTTP with the local adapter:
 *   node serve-asset.mjs <handler.mjs>   (PORT, HOST from the environment)
 * Built by esbuild into one file (see bundled-server.ts) and run beside a copy
 * of the asset, outside the project, so the handler can only use what its
 * bundle contains. Prints `listening <port>` once it accepts requests.
 */
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createHttpAdapter, listen } from '../http-adapter';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: serve-asset <handler.mjs>');
  const { handler } = (await import(pathToFileURL(file).href)) as { handler: Handler };
  const server = createHttpAdapter(handler);
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
