/**
 * npm run --silent bench:control-room -- --factory <fac_id>: the control room
 * on a large factory (seed one with `npm run seed`), on the store the
 * operator commands use (npm start's, or DYNAMODB_ENDPOINT). Serves the app
 * in this process as `npm run control-room` does and measures, over HTTP:
 *   - the contacts page: page 1 and page N (default 50, reached by following
 *     the cursors), each asked again several times, median and max;
 *   - the export streamed to this client (JSON lines, then CSV), contacts per
 *     second, against a raw Scan of the same table and a raw Query of the
 *     same contacts (the export's own read, without the app) read in the
 *     same run (items per second), and the ratios;
 *   - the contacts page's weight: its HTML and every script and stylesheet
 *     it loads, as sent and gzipped.
 * Prints a report and one JSON line with the figures.
 */
import { QueryCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { factoryIdArg, parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { connectControl } from '../../local/console/control/client';
import { createSession } from '../../local/console/control-room/security';
import { EXPORT_PAGE } from '../../local/console/control-room/export-stream';
import { createControlRoomServer, listenLocal } from '../../local/console/control-room/server';
import { freePort } from '../../local/harness/ports';
import { connectStore } from '../../local/harness/store';

const USAGE = `usage: npm run --silent bench:control-room -- --factory <fac_id> [--page <N>] [--repeat <R>] [--rounds <K>]

  --factory   the factory to measure (seed it first: npm run --silent seed -- --factory <fac_id>)
  --page      the later page to compare with page 1 (default 50)
  --repeat    times each of the two pages is asked (default 7)
  --rounds    export and Scan runs, interleaved (default 2): the best of each counts`;

interface Fetched {
  status: number;
  body: Buffer;
  ms: number;
}

/** A GET with the session cookie, read to the end (counted, not kept, when `keep` is false). */
function get(port: number, cookie: string, path: string, keep = true): Promise<Fetched & { bytes: number; lines: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, cookie }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
        if (keep) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started, bytes, lines }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    factory: { type: 'string' },
    page: { type: 'string' },
    repeat: { type: 'string' },
    rounds: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const factoryId = factoryIdArg(values.factory);
  const later = positiveIntArg('--page', values.page, 10_000) ?? 50;
  const repeat = positiveIntArg('--repeat', values.repeat, 100) ?? 7;
  const rounds = positiveIntArg('--rounds', values.rounds, 10) ?? 2;

  const store = await connectStore({}, ['contacts']);
  const client = await connectControl({});
  const port = await freePort();
  const session = createSession(port);
  const server = createControlRoomServer({ client, session });
  await listenLocal(server, port);
  const cookie = `${session.cookieName}=${session.secret}`;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    // The contacts pages: follow the cursors to page N, then ask page 1 and page N again, in turns.
    const first = `/f/${factoryId}/contacts`;
    let path = first;
    for (let number = 1; number < later; number += 1) {
      const page = await get(port, cookie, path);
      if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
      const next = /<a rel="next" href="([^"]+)"/.exec(page.body.toString('utf8'))?.[1];
      if (!next) throw new Error(`the factory has ${number} pages of contacts, fewer than ${later}: seed more (npm run seed)`);
      path = next.replace(/&amp;/g, '&');
    }
    const times: Record<'first' | 'later', number[]> = { first: [], later: [] };
    for (let i = 0; i < repeat; i += 1) {
      times.first.push((await get(port, cookie, first)).ms);
      times.later.push((await get(port, cookie, path)).ms);
    }

    // Export against a raw Scan of the same table, interleaved.
    const exports: { format: string; perSecond: number; contacts: number; mb: number; seconds: number }[] = [];
    const scans: { perSecond: number; items: number; seconds: number }[] = [];
    const queries: { perSecond: number; items: number; seconds: number }[] = [];
    for (let r = 0; r < rounds; r += 1) {
      let items = 0;
      const started = performance.now();
      // Pages of EXPORT_PAGE items, as the export reads (DynamoDB Local answers unbounded 1 MB pages far slower).
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await store.client.send(new ScanCommand({ TableName: store.tables.contacts, ExclusiveStartKey: start, Limit: EXPORT_PAGE }));
        items += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      const seconds = (performance.now() - started) / 1000;
      scans.push({ perSecond: items / seconds, items, seconds });
      // The export's own read path without the app: the factory's partition, the same page size, nothing decoded.
      let read = 0;
      const queryStarted = performance.now();
      let from: Record<string, AttributeValue> | undefined;
      do {
        const page = await store.client.send(
          new QueryCommand({
            TableName: store.tables.contacts,
            KeyConditionExpression: 'factoryId = :f AND begins_with(sk, :ct)',
            ExpressionAttributeValues: { ':f': { S: factoryId }, ':ct': { S: 'ct_' } },
            ExclusiveStartKey: from,
            Limit: EXPORT_PAGE,
          }),
        );
        read += page.Count ?? 0;
        from = page.LastEvaluatedKey;
      } while (from);
      const querySeconds = (performance.now() - queryStarted) / 1000;
      queries.push({ perSecond: read / querySeconds, items: read, seconds: querySeconds });
      for (const format of ['jsonl', 'csv']) {
        const answer = await get(port, cookie, `/f/${factoryId}/export/contacts.${format}`, false);
        if (answer.status !== 200) throw new Error(`the ${format} export answered ${answer.status}`);
        const contacts = format === 'csv' ? answer.lines - 1 : answer.lines;
        exports.push({ format, contacts, perSecond: contacts / (answer.ms / 1000), mb: answer.bytes / 1e6, seconds: answer.ms / 1000 });
      }
    }
    const bestScan = Math.max(...scans.map((scan) => scan.perSecond));
    const bestQuery = Math.max(...queries.map((query) => query.perSecond));
    const best = (format: string) => Math.max(...exports.filter((entry) => entry.format === format).map((entry) => entry.perSecond));

    // The contacts page's weight: the HTML, then each script and stylesheet it names (and the modules they import).
    const html = await get(port, cookie, first);
    const assets = new Set<string>();
    const queue = [...html.body.toString('utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1] as string);
    let raw = html.body.length;
    let gzipped = gzipSync(html.body).length;
    while (queue.length > 0) {
      const asset = queue.shift() as string;
      if (assets.has(asset)) continue;
      assets.add(asset);
      const body = (await get(port, cookie, asset)).body;
      raw += body.length;
      gzipped += gzipSync(body).length;
      for (const match of body.toString('utf8').matchAll(/from '\.\/([^']+)'/g)) queue.push(`/assets/${match[1]}`);
    }

    const figures = {
      factoryId,
      contactsPage1Ms: { median: round(median(times.first)), max: round(Math.max(...times.first)) },
      [`contactsPage${later}Ms`]: { median: round(median(times.later)), max: round(Math.max(...times.later)) },
      scanItemsPerSecond: Math.round(bestScan),
      exportJsonlPerSecond: Math.round(best('jsonl')),
      exportCsvPerSecond: Math.round(best('csv')),
      ratioJsonl: round(best('jsonl') / bestScan, 2),
      ratioCsv: round(best('csv') / bestScan, 2),
      queryItemsPerSecond: Math.round(bestQuery),
      ratioJsonlToQuery: round(best('jsonl') / bestQuery, 2),
      ratioCsvToQuery: round(best('csv') / bestQuery, 2),
      exportedContacts: exports[0]?.contacts,
      scannedItems: scans[0]?.items,
      contactsPageBytes: { raw, gzip: gzipped, files: 1 + assets.size },
    };
    say(`contacts page 1: median ${figures.contactsPage1Ms.median} ms, max ${figures.contactsPage1Ms.max} ms (${repeat} times)`);
    say(`contacts page ${later}: median ${round(median(times.later))} ms, max ${round(Math.max(...times.later))} ms`);
    for (const scan of scans) say(`raw Scan of the contacts table: ${scan.items} items in ${round(scan.seconds, 2)} s = ${Math.round(scan.perSecond)} items/s`);
    for (const query of queries)
      say(`raw Query of the factory's contacts: ${query.items} items in ${round(query.seconds, 2)} s = ${Math.round(query.perSecond)} items/s`);
    for (const entry of exports)
      say(
        `export ${entry.format}: ${entry.contacts} contacts, ${round(entry.mb)} MB in ${round(entry.seconds, 2)} s = ${Math.round(entry.perSecond)} contacts/s`,
      );
    say(`export / Scan (best of ${rounds}): jsonl ${figures.ratioJsonl}, csv ${figures.ratioCsv} (target ≥ 0.8)`);
    say(`export / raw Query of the same contacts: jsonl ${figures.ratioJsonlToQuery}, csv ${figures.ratioCsvToQuery}`);
    say(`contacts page weight: ${raw} bytes as sent, ${gzipped} gzipped, ${1 + assets.size} files (${[...assets].join(', ')})`);
    say(JSON.stringify(figures));
  } finally {
    server.closeAllConnections();
    server.close();
    await client.close();
    await store.close();
  }
});
