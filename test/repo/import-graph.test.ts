import { buildSync, stop } from 'esbuild';
import { join } from 'node:path';

/**
 * Each Lambda function carries only its own API: checked on the import
 * graph esbuild follows when it bundles each entry (value imports; type-only
 * imports never reach a bundle), not on a list of files.
 *
 * What belongs to an API: its folders (OWN_FOLDERS), and any module that
 * imports from them, since it cannot run without them. Everything else is shared.
 */
const ROOT = join(__dirname, '..', '..');

const ENTRIES = {
  contacts: 'lambda/contacts/api/contacts-entry.ts',
  ingest: 'lambda/ingest/api/ingest-entry.ts',
  sourcemaps: 'lambda/ingest/sourcemaps/api/sourcemaps-entry.ts',
  control: 'lambda/control/control-room-entry.ts',
  notifier: 'lambda/alerts/notifier-entry.ts',
  deliverer: 'lambda/alerts/deliverer-entry.ts',
} as const;
type Entry = keyof typeof ENTRIES;

/**
 * An API's own modules: the contacts API's folder; the ingest API's folder, its own protocol's rules (the
 * files at the root of lambda/ingest), scrubbing and the Sentry protocol. Grouping, the issue model, source
 * maps and the tally sit under lambda/ingest too but are shared with the tally, the control room and alerts.
 */
const OWN_FOLDERS = {
  contacts: [/^lambda\/contacts\/api\//],
  ingest: [/^lambda\/ingest\/api\//, /^lambda\/ingest\/[^/]+\.ts$/, /^lambda\/ingest\/(scrub|sentry)\//],
} as const;
type Api = keyof typeof OWN_FOLDERS;

/** Each of our modules an entry's bundle is built from, with the modules of ours it imports, and the packages. */
function importGraph(entry: string): { graph: Map<string, string[]>; packages: Map<string, string[]> } {
  const { metafile } = buildSync({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    // Packages are not ours: the graph stops at them.
    packages: 'external',
    logLevel: 'silent',
  });
  const ours = (path: string) => path.startsWith('lambda/');
  const modules = Object.entries(metafile.inputs).filter(([path]) => ours(path));
  return {
    graph: new Map(modules.map(([path, input]) => [path, input.imports.map((edge) => edge.path).filter(ours)])),
    packages: new Map(modules.map(([path, input]) => [path, input.imports.filter((edge) => edge.external).map((edge) => edge.path)])),
  };
}

const built = Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, importGraph(entry)])) as Record<Entry, ReturnType<typeof importGraph>>;
const graphs = Object.fromEntries(Object.entries(built).map(([name, { graph }]) => [name, graph])) as Record<Entry, Map<string, string[]>>;

/** The modules of an API: those in its folders, and every module that imports one of them (to a fixed point). */
function ownedBy(api: Api): Set<string> {
  const edges = new Map<string, string[]>();
  for (const graph of Object.values(graphs)) for (const [module, imports] of graph) edges.set(module, imports);
  const owned = new Set([...edges.keys()].filter((module) => OWN_FOLDERS[api].some((folder) => folder.test(module))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [module, imports] of edges) {
      if (!owned.has(module) && imports.some((imported) => owned.has(imported))) {
        owned.add(module);
        grew = true;
      }
    }
  }
  return owned;
}

/** How `entry` reaches each module of `modules` it reaches, as "a → b → c". */
function reached(entry: Entry, modules: Set<string>): string[] {
  const graph = graphs[entry];
  const from = new Map<string, string | undefined>([[ENTRIES[entry], undefined]]);
  const queue: string[] = [ENTRIES[entry]];
  for (let module = queue.shift(); module !== undefined; module = queue.shift()) {
    for (const imported of graph.get(module) ?? []) {
      if (from.has(imported)) continue;
      from.set(imported, module);
      queue.push(imported);
    }
  }
  return [...from.keys()]
    .filter((module) => modules.has(module))
    .map((module) => {
      const chain = [module];
      for (let at = from.get(module); at !== undefined; at = from.get(at)) chain.unshift(at);
      return chain.join(' → ');
    });
}

const CONTACTS = ownedBy('contacts');
const INGEST = ownedBy('ingest');

// esbuild keeps a service process for later builds: none are coming.
afterAll(() => stop());

describe('import graph of each Lambda entry', () => {
  test("the contacts entry reaches none of the ingest API's modules", () => {
    expect(reached('contacts', INGEST)).toEqual([]);
  });

  test("the ingest entry reaches none of the contacts API's modules", () => {
    expect(reached('ingest', CONTACTS)).toEqual([]);
  });

  test("the source maps entry reaches none of the ingest API's modules (it shares the contacts API's secret-key guards)", () => {
    expect(reached('sourcemaps', INGEST)).toEqual([]);
  });

  test("the contacts and ingest entries reach none of the source maps API's modules", () => {
    const sourcemaps = new Set([...graphs.sourcemaps.keys()].filter((module) => module.startsWith('lambda/ingest/sourcemaps/api/')));
    expect(sourcemaps.size).toBeGreaterThan(0);
    expect([...reached('contacts', sourcemaps), ...reached('ingest', sourcemaps)]).toEqual([]);
  });

  test("the control room's entry reaches neither API's modules", () => {
    expect(reached('control', new Set([...CONTACTS, ...INGEST]))).toEqual([]);
  });

  test("the alert functions' entries reach neither API's modules", () => {
    expect(reached('notifier', new Set([...CONTACTS, ...INGEST]))).toEqual([]);
    expect(reached('deliverer', new Set([...CONTACTS, ...INGEST]))).toEqual([]);
  });

  test('the ingest entry imports no zod at run time: its bodies are read by hand (lambda/ingest/payloads.ts)', () => {
    const zod = [...built.ingest.packages].flatMap(([module, packages]) =>
      packages.filter((name) => name === 'zod' || name.startsWith('zod/')).map((name) => `${module} → ${name}`),
    );
    expect(zod).toEqual([]);
  });

  test('each API entry reaches its own route table, and both build on the one shared pipeline', () => {
    expect(reached('contacts', new Set(['lambda/contacts/api/routes.ts']))).toHaveLength(1);
    expect(reached('ingest', new Set(['lambda/ingest/api/routes.ts']))).toHaveLength(1);
    for (const entry of ['contacts', 'ingest'] as const) expect(graphs[entry].has('lambda/infrastructure/http/pipeline.ts')).toBe(true);
    expect(CONTACTS.has('lambda/infrastructure/http/pipeline.ts') || INGEST.has('lambda/infrastructure/http/pipeline.ts')).toBe(false);
  });
});
