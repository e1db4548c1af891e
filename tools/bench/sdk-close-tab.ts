/**
 * `npm run bench:sdk-close-tab`: what survives a closing tab, per browser
 * engine (Chromium, Firefox ESR, WebKitGTK: tools/browsers/engines.ts), over
 * enough tabs to be a rate. Each tab is opened alone (the previous one
 * closed first: in Firefox, the harshest case), does one thing, and is
 * closed by the driver as a visitor closes it; a collector on this machine
 * counts what arrived:
 * - sdk, error then close: the SDK with its defaults, an error thrown, the
 *   tab closed 10 ms later (the case of docs/browser-sdk.md#what-survives-a-closing-tab);
 * - sdk, error in the window: the same error thrown while the SDK's batching
 *   window is open, so that only the close-time beacon can carry it (what
 *   every error depended on before the leading-edge send);
 * - controls: a plain page, no SDK, whose `pagehide` sends one beacon (the
 *   engine's own close-time send), of 20 bytes and of an event's size, and
 *   the same page's second beacon in the same `pagehide` (a close that needs
 *   more than one request).
 * The collector answers as the ingest API does (202, the page's origin in
 * Access-Control-Allow-Origin) and counts a tab when its request's body
 * has arrived: what the engine delivered, not what a store did with it.
 * Writes bench/sdk-close-tab.md and bench/sdk-close-tab.json.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { scriptText } from '../../browser-sdk/bundles';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { freePort } from '../../local/harness/ports';
import { ENGINES, launchEngine, type EngineName } from '../browsers/engines';
import { describeMachine, finishMachine } from './machine';

const USAGE = `usage: npm run bench:sdk-close-tab [-- --tabs <N>] [--engines chromium,firefox,webkit] [--no-write]

Opens N tabs (default 50) per engine and case, one at a time, each closed by
the driver as a visitor closes a tab, and counts what a local collector
received: the SDK's error thrown 10 ms before the close, the same error
while the SDK's batching window is open, and the engine's own control (a
plain page's pagehide beacon, and its second one). Writes
bench/sdk-close-tab.md and .json unless --no-write.`;

const ROOT = join(__dirname, '..', '..');

interface Case {
  id: string;
  title: string;
  /** The page's <head>, given the collector's address. */
  head(collector: string): string;
  /** What the page does before the close (it resolves when the driver may close the tab), for tab `n`. */
  act(n: number): string;
  /** Markers of tab `n` in what the collector received (the first one counts for this case). */
  marker(n: number): string;
}

const sdkHead = (collector: string, options: string) =>
  `<script src="/contacts-ingest.min.js"></script><script>ContactsIngest.init(Object.assign({ key: 'dfpk_bench', baseUrl: ${JSON.stringify(collector)} }, ${options}));</script>`;
/** Resolves 10 ms after the page's error, by the page's own clock. */
const throwThenClose = (n: number) =>
  `new Promise(function (closeNow) { setTimeout(function () { throw new Error('closed tab ${n}'); }); setTimeout(closeNow, 10); })`;
/** A plain page whose pagehide sends `count` beacons of `bytes` bytes each (the tab's marker, padded). */
const beaconHead = (collector: string, count: number, bytes: number) =>
  `<script>addEventListener('pagehide', function () { for (var i = 1; i <= ${count}; i++) { var text = 'beacon ' + i + ' of tab ' + window.tab + ' '; navigator.sendBeacon(${JSON.stringify(`${collector}/beacon`)}, text + 'x'.repeat(Math.max(0, ${bytes} - text.length))); } });</script>`;
/** About one event as the SDK sends it (an error with a short stack). */
const EVENT_BYTES = 450;

const CASES: Case[] = [
  {
    id: 'sdk',
    title: 'SDK: an error, the tab closed 10 ms later',
    head: (collector) => sdkHead(collector, '{}'),
    act: throwThenClose,
    marker: (n) => `closed tab ${n}"`,
  },
  {
    id: 'sdk-in-window',
    title: 'SDK: the same error inside the batching window (close-time beacon only)',
    // A first message leaves at once and opens a minute's window: the error waits in it until the close.
    head: (collector) => sdkHead(collector, '{ flushDelayMs: 60000 }'),
    act: (n) => `ContactsIngest.captureMessage('opening'); ContactsIngest.flush(5000).then(function () { return ${throwThenClose(n)}; })`,
    marker: (n) => `closed tab ${n}"`,
  },
  {
    id: 'control-tiny',
    title: "control: a plain page's pagehide beacon of 20 bytes",
    head: (collector) => beaconHead(collector, 1, 20),
    act: (n) => `window.tab = ${n}`,
    marker: (n) => `beacon 1 of tab ${n} `,
  },
  {
    id: 'control',
    title: `control: a plain page's pagehide beacon of ${EVENT_BYTES} bytes (an event's size)`,
    head: (collector) => beaconHead(collector, 1, EVENT_BYTES),
    act: (n) => `window.tab = ${n}`,
    marker: (n) => `beacon 1 of tab ${n} `,
  },
  {
    id: 'control-second',
    title: `control: the same page's second pagehide beacon of ${EVENT_BYTES} bytes`,
    head: (collector) => beaconHead(collector, 2, EVENT_BYTES),
    act: (n) => `window.tab = ${n}`,
    marker: (n) => `beacon 2 of tab ${n} `,
  },
];

interface Result {
  engine: EngineName;
  version: string;
  case: string;
  title: string;
  tabs: number;
  arrived: number;
}

async function listenOn(server: Server): Promise<string> {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return `http://localhost:${port}`;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

async function measure(engines: EngineName[], tabs: number): Promise<Result[]> {
  const script = await scriptText();
  const received: string[] = [];
  const collector = createServer(async (req, res) => {
    received.push(await bodyOf(req));
    res.writeHead(202, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': req.headers.origin ?? '*', Vary: 'Origin' });
    res.end('{"accepted":1}');
  });
  let pageHead = '';
  const site = createServer((req, res) => {
    if (req.url === '/contacts-ingest.min.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(script);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>shop</title>${pageHead}</head><body><p>A customer's page.</p></body></html>`);
  });
  const [collectorUrl, siteUrl] = [await listenOn(collector), await listenOn(site)];
  const results: Result[] = [];
  try {
    for (const name of engines) {
      const engine = await launchEngine(name);
      try {
        for (const item of CASES) {
          received.length = 0;
          pageHead = item.head(collectorUrl);
          for (let n = 1; n <= tabs; n += 1) {
            const tab = await engine.newTab();
            await tab.goto(`${siteUrl}/${name}/${item.id}/${n}`);
            await tab.evaluate(item.act(n));
            await tab.close();
          }
          // What is still on its way has a few seconds; the wait ends early once every tab's marker is in.
          const count = () =>
            Array.from({ length: tabs }, (_, i) => item.marker(i + 1)).filter((marker) => received.some((body) => body.includes(marker))).length;
          const deadline = Date.now() + 5000;
          while (count() < tabs && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
          results.push({ engine: name, version: engine.version, case: item.id, title: item.title, tabs, arrived: count() });
          console.log(`${name.padEnd(8)} ${item.title.padEnd(72)} ${String(count()).padStart(3)} of ${tabs}`);
        }
      } finally {
        await engine.close();
      }
    }
  } finally {
    for (const server of [collector, site]) {
      server.closeAllConnections();
      server.close();
    }
  }
  return results;
}

function markdown(results: Result[], machine: ReturnType<typeof finishMachine>, command: string): string {
  const engines = [...new Set(results.map((result) => result.engine))];
  const cell = (engine: EngineName, id: string) => {
    const result = results.find((item) => item.engine === engine && item.case === id);
    return result ? `${result.arrived} of ${result.tabs} (${Math.round((100 * result.arrived) / result.tabs)} %)` : '–';
  };
  const versions = engines.map((engine) => `${engine}: ${results.find((result) => result.engine === engine)?.version}`).join('; ');
  return `# What survives a closing tab, per engine

Written by \`${command}\` (tools/bench/sdk-close-tab.ts), ${machine.date}: ${machine.cores} × ${machine.cpuModel}, Node ${machine.node};
1-minute load average ${machine.loadAtStart.toFixed(2)} at the start, ${(machine.loadAtEnd ?? 0).toFixed(2)} at the end. Engines (Debian's packages): ${versions}.

Each tab is opened alone (the one before it already closed), does one thing, and is closed by the driver as a
visitor closes a tab (its \`pagehide\` runs). A collector on this machine, answering as the ingest API does,
counts a tab once its request's body has arrived. The controls are plain pages without the SDK: the engine's
own close-time send.

| case | ${engines.join(' | ')} |
|---|${engines.map(() => '---|').join('')}
${CASES.map((item) => `| ${item.title} | ${engines.map((engine) => cell(engine, item.id)).join(' | ')} |`).join('\n')}

What it means for the SDK: [docs/browser-sdk.md](../docs/browser-sdk.md#what-survives-a-closing-tab). Why Firefox's
losses are Firefox's own and not the harness's: [docs/development.md](../docs/development.md#a-closed-tab-in-firefox)
(\`npm run bench:firefox-close-groups\`).
`;
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { tabs: { type: 'string' }, engines: { type: 'string' }, 'no-write': { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const tabs = positiveIntArg('--tabs', values.tabs as string | undefined, 1000) ?? 50;
  const engines = ((values.engines as string | undefined)?.split(',').map((name) => name.trim()) ?? [...ENGINES]) as EngineName[];
  const unknown = engines.filter((name) => !ENGINES.includes(name));
  if (unknown.length > 0) throw new UsageError(`--engines: unknown engine ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  const machine = describeMachine('none (a local collector)');
  const results = await measure(engines, tabs);
  const finished = finishMachine(machine);
  if (values['no-write']) return;
  const command = `npm run bench:sdk-close-tab -- --tabs ${tabs}${values.engines ? ` --engines ${engines.join(',')}` : ''}`;
  writeFileSync(join(ROOT, 'bench', 'sdk-close-tab.json'), `${JSON.stringify({ command, machine: finished, results }, null, 2)}\n`);
  writeFileSync(join(ROOT, 'bench', 'sdk-close-tab.md'), markdown(results, finished, command));
  console.log('wrote bench/sdk-close-tab.md and bench/sdk-close-tab.json');
});
