import { parentsOf, type ProcessRecord } from './accounting';

/**
 * Where a test run's CPU went, by kind of process, from its accounting records. Only the process names are known
 * (no command lines), so a kind is read from the shape of the tree: jest's main process is the one with long-lived
 * node children (its workers), a browser is a subtree holding an engine's process or thread names, an `npm start`
 * is a command whose subtree holds a JVM (its own DynamoDB Local) or npm's process titled so.
 */

export type Kind =
  | 'jestWorkers'
  | 'jestMain'
  | 'launcher'
  | 'dynamodbLocal'
  | 'testJvms'
  | 'npmStarts'
  | 'commands'
  | 'chromium'
  | 'firefox'
  | 'webkit'
  | 'xvfb'
  | 'staticChecks'
  | 'esbuild'
  | 'other';

export const KINDS: Record<Kind, string> = {
  jestWorkers: "jest workers' own work",
  jestMain: 'jest main process',
  launcher: 'the launcher (npm, sh, node above jest)',
  dynamodbLocal: "the run's DynamoDB Local (JVMs jest's setup started)",
  testJvms: 'JVMs a test file started itself',
  npmStarts: '`npm start` trees (node, tsx, their DynamoDB Local)',
  commands: 'commands under test (short node trees)',
  chromium: 'Chromium',
  firefox: 'Firefox ESR',
  webkit: 'WebKitGTK',
  xvfb: 'Xvfb (the engines’ display)',
  staticChecks: 'static checks (tsc, biome)',
  esbuild: 'esbuild (tsx, the SDK build)',
  other: 'other',
};

type Engine = 'chromium' | 'firefox' | 'webkit' | 'xvfb';

/** Names only an engine's processes or threads take (a record carries its last thread's name). */
const ENGINE_NAMES: [Engine, RegExp][] = [
  [
    'chromium',
    /^(chromium|chrome|headless_shell|chrome_crashpad|sandbox_ipc_thr|MemoryInfra|HangWatcher|ThreadPool(Foreg|Servi|Singl|Prese)|Chrome_\w+|CrShutdownDetec|DevToolsPipeHan|PerfettoTrace)$/,
  ],
  [
    'firefox',
    /^(firefox-esr|firefox|forkserver|JS Watchdog|IPC I\/O (Parent|Child)|Socket (Process|Thread)|glxtest|crashhelper|Web Content|Isolated Web Co|RDD Process|GeckoMain)$/,
  ],
  ['webkit', /^(MiniBrowser|WebKit\w*|pool-WebKit\w*|WebKitW:.*)$/],
  ['xvfb', /^(Xvfb|xkbcomp)$/],
];

/** A JVM's thread names (HotSpot's, Jetty's pools, the executor pools DynamoDB Local runs on). */
const JVM_NAMES =
  /^(java|GC Thread#\d+|G1 .*|C[12] CompilerThre|VM Thread|VM Periodic Tas|(Re)?ference Handl(er)?|Finalizer|Signal Dispatch|Service Thread|Monitor Deflati|Common-Cleaner|Notification Th|Sweeper thread|Attach Listener|DestroyJavaVM|process reaper|qtp\d.*|pool-\d+-thread.*)$/;

const TOOLS: [Kind, RegExp][] = [
  ['staticChecks', /^(tsc|biome.*)$/],
  ['esbuild', /^esbuild$/],
];

export const isJvm = (comm: string): boolean => JVM_NAMES.test(comm);

/** The engine a name belongs to, if any. */
export function engineOfName(comm: string): Engine | undefined {
  return ENGINE_NAMES.find(([, names]) => names.test(comm))?.[0];
}

/** A run's process tree: each record's parent and children, by index. */
export interface ProcessTree {
  records: readonly ProcessRecord[];
  parents: readonly (number | undefined)[];
  children: readonly number[][];
}

export function processTree(records: readonly ProcessRecord[]): ProcessTree {
  const parents = parentsOf(records);
  const children: number[][] = records.map(() => []);
  parents.forEach((parent, index) => {
    if (parent !== undefined) children[parent]?.push(index);
  });
  return { records, parents, children };
}

/** The indexes of a record's subtree, itself first. */
export function subtree(tree: ProcessTree, top: number): number[] {
  const found: number[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const index = stack.pop() as number;
    found.push(index);
    stack.push(...(tree.children[index] as number[]));
  }
  return found;
}

const isNode = (record: ProcessRecord | undefined): boolean => record?.comm === 'node';

/** A jest main process: its workers are its node children that lived at least half as long as the longest one. */
function workersOf(tree: ProcessTree, main: number): number[] {
  const nodeChildren = (tree.children[main] as number[]).filter((child) => isNode(tree.records[child]));
  const longest = Math.max(0, ...nodeChildren.map((child) => (tree.records[child] as ProcessRecord).elapsed));
  return nodeChildren.filter((child) => (tree.records[child] as ProcessRecord).elapsed >= longest / 2);
}

/** The two longest lives among a process's node children: jest's main process has the largest (its workers). */
function workerTime(tree: ProcessTree, index: number): number {
  const lives = (tree.children[index] as number[])
    .filter((child) => isNode(tree.records[child]))
    .map((child) => (tree.records[child] as ProcessRecord).elapsed)
    .sort((a, b) => b - a);
  return lives.length < 2 ? 0 : (lives[0] as number) + (lives[1] as number);
}

/** Jest's main process among the given records: the node process whose two longest-lived node children lived longest. */
export function findJestMain(tree: ProcessTree, among: readonly number[] = tree.records.map((record) => record.index)): number | undefined {
  let best: number | undefined;
  let bestTime = 0;
  for (const index of among) {
    if (!isNode(tree.records[index])) continue;
    const time = workerTime(tree, index);
    if (time > bestTime) [best, bestTime] = [index, time];
  }
  return best;
}

/**
 * Without workers (jest in band, or a root that is no jest), the main process is the last node process of the
 * wrappers the root runs through (npx → sh → node): each a node or sh child living about as long as its parent.
 */
function mainOfChain(tree: ProcessTree, root: number): number | undefined {
  let main = isNode(tree.records[root]) ? root : undefined;
  for (let at = root; ; ) {
    const elapsed = (tree.records[at] as ProcessRecord).elapsed;
    const next = (tree.children[at] as number[]).find((child) => {
      const record = tree.records[child] as ProcessRecord;
      return (record.comm === 'node' || record.comm === 'sh') && record.elapsed >= 0.9 * elapsed;
    });
    if (next === undefined) return main;
    at = next;
    if (isNode(tree.records[at])) main = at;
  }
}

/** The run's root: the outermost node process above jest's main one (`npm test`'s own npm), or undefined without jest. */
export function findRoot(tree: ProcessTree): number | undefined {
  const main = findJestMain(tree);
  if (main === undefined) return undefined;
  let root = main;
  for (let at = tree.parents[main]; at !== undefined; at = tree.parents[at]) if (isNode(tree.records[at])) root = at;
  return root;
}

/** The last record of a pid (a pid can be used again; the last one is the run that ended the file). */
export function recordOfPid(records: readonly ProcessRecord[], pid: number): number | undefined {
  for (let index = records.length - 1; index >= 0; index--) if (records[index]?.pid === pid) return index;
  return undefined;
}

export interface KindTotal {
  processes: number;
  cpu: number;
}

export interface Breakdown {
  root: { pid: number; comm: string; elapsed: number };
  /** Jest's main process and its workers; no workers: jest ran in band, or the root's main node process is no jest. */
  jest?: { mainPid: number; workerPids: number[] };
  processes: number;
  cpu: number;
  kinds: Record<Kind, KindTotal>;
  /** Each `npm start` tree's CPU (its esbuild, tsc and biome counted under their own kinds), in exit order. */
  npmStarts: number[];
  /** Command trees under test, and the node processes in them. */
  commands: { trees: number; nodeProcesses: number };
  /** The names that make up "other", largest first. */
  otherNames: { comm: string; processes: number; cpu: number }[];
  /**
   * Processes adopted by init (ppid 1) that started while the root ran, with what they started: their parent exited
   * first, so the tree cannot say whose they were (a browser's zygote or forkserver outlives it; on a shared machine,
   * other users' processes are adopted too). In the totals above only when `counted`.
   */
  orphans: { processes: number; cpu: number; byKind: { kind: string; processes: number; cpu: number }[]; counted: boolean };
}

/** The engine most of a subtree's names belong to, if any. */
function engineOfSubtree(tree: ProcessTree, members: readonly number[]): Engine | undefined {
  const counts = new Map<Engine, number>();
  for (const index of members) {
    const engine = engineOfName((tree.records[index] as ProcessRecord).comm);
    if (engine) counts.set(engine, (counts.get(engine) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const toolKind = (comm: string): Kind | undefined => TOOLS.find(([, names]) => names.test(comm))?.[0];

function emptyKinds(): Record<Kind, KindTotal> {
  return Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, { processes: 0, cpu: 0 }])) as Record<Kind, KindTotal>;
}

/** What the classifying of a run's groups gathers besides each process's kind. */
interface Tally {
  kindOf: Map<number, Kind>;
  npmStarts: number[];
  commands: { trees: number; nodeProcesses: number };
}

/**
 * Gives each process of one group (a process the run's chain started, or one adopted by init, with its subtree) its
 * kind: an engine's names make the group that engine's; a JVM at its top is DynamoDB Local (`jvmKind` says whose);
 * a JVM inside, or npm's process titled `npm start`, makes it an `npm start`; a node process in it, a command. Tools
 * (tsc, biome, esbuild) keep their own kind wherever they run.
 */
function classifyGroup(tree: ProcessTree, group: readonly number[], jvmKind: Kind, tally: Tally): void {
  const engine = engineOfSubtree(tree, group);
  const top = tree.records[group[0] as number] as ProcessRecord;
  if (engine || isJvm(top.comm)) {
    for (const member of group) tally.kindOf.set(member, engine ?? jvmKind);
    return;
  }
  // npm names its process after the script it runs; a killed one's children are adopted by init and leave it alone.
  const isStart = group.some((member) => {
    const comm = (tree.records[member] as ProcessRecord).comm;
    return isJvm(comm) || comm === 'npm start';
  });
  const nodes = group.filter((member) => isNode(tree.records[member])).length;
  const kind: Kind = isStart ? 'npmStarts' : nodes > 0 ? 'commands' : 'other';
  let own = 0;
  for (const member of group) {
    const memberKind: Kind = toolKind((tree.records[member] as ProcessRecord).comm) ?? kind;
    tally.kindOf.set(member, memberKind);
    if (memberKind === kind) own += (tree.records[member] as ProcessRecord).cpu;
  }
  if (kind === 'npmStarts') tally.npmStarts.push(own);
  if (kind === 'commands') {
    tally.commands.trees++;
    tally.commands.nodeProcesses += nodes;
  }
}

/**
 * Adds up the CPU of the root's tree by kind. With `adopted`, the trees init adopted while the root ran count too
 * (for a machine where nothing else ran: they are then the run's, such as a browser's zygote or a killed `npm
 * start`'s server); an adopted JVM alone counts as an `npm start`'s.
 */
export function cpuByKind(tree: ProcessTree, root: number, options: { adopted?: boolean } = {}): Breakdown {
  const withWorkers = findJestMain(tree, subtree(tree, root));
  const main = withWorkers ?? mainOfChain(tree, root);
  const workers = withWorkers === undefined ? [] : workersOf(tree, withWorkers);
  const tally: Tally = { kindOf: new Map([[root, 'launcher']]), npmStarts: [], commands: { trees: 0, nodeProcesses: 0 } };
  if (main !== undefined) {
    for (let at = tree.parents[main]; at !== undefined && at !== root; at = tree.parents[at]) tally.kindOf.set(at, 'launcher');
    tally.kindOf.set(main, 'jestMain');
    for (const worker of workers) tally.kindOf.set(worker, 'jestWorkers');
  }
  const chain = new Set(tally.kindOf.keys());
  const members = subtree(tree, root);
  for (const index of members) {
    const parent = tree.parents[index];
    if (chain.has(index) || parent === undefined || !chain.has(parent)) continue;
    classifyGroup(tree, subtree(tree, index), workers.includes(parent) ? 'testJvms' : 'dynamodbLocal', tally);
  }
  const orphans = orphansDuring(tree, root);
  if (options.adopted) {
    for (const group of orphans.groups) {
      classifyGroup(tree, group, 'npmStarts', tally);
      members.push(...group);
    }
  }
  const kinds = emptyKinds();
  const other = new Map<string, KindTotal>();
  let cpu = 0;
  for (const index of members) {
    const record = tree.records[index] as ProcessRecord;
    // What no rule above took (a tool the chain ran itself, say) is other unless its name says what it is.
    const kind = tally.kindOf.get(index) ?? toolKind(record.comm) ?? 'other';
    kinds[kind].processes++;
    kinds[kind].cpu += record.cpu;
    cpu += record.cpu;
    if (kind === 'other') {
      const name = other.get(record.comm) ?? { processes: 0, cpu: 0 };
      other.set(record.comm, { processes: name.processes + 1, cpu: name.cpu + record.cpu });
    }
  }
  const rootRecord = tree.records[root] as ProcessRecord;
  return {
    root: { pid: rootRecord.pid, comm: rootRecord.comm, elapsed: rootRecord.elapsed },
    ...(main === undefined
      ? {}
      : { jest: { mainPid: (tree.records[main] as ProcessRecord).pid, workerPids: workers.map((worker) => (tree.records[worker] as ProcessRecord).pid) } }),
    processes: members.length,
    cpu,
    kinds,
    npmStarts: tally.npmStarts,
    commands: tally.commands,
    otherNames: [...other].map(([comm, total]) => ({ comm, ...total })).sort((a, b) => b.cpu - a.cpu),
    orphans: { processes: orphans.processes, cpu: orphans.cpu, byKind: orphans.byKind, counted: options.adopted === true },
  };
}

function orphansDuring(tree: ProcessTree, rootIndex: number): Omit<Breakdown['orphans'], 'counted'> & { groups: number[][] } {
  const root = tree.records[rootIndex] as ProcessRecord;
  const above = new Set<number>();
  for (let at = tree.parents[rootIndex]; at !== undefined; at = tree.parents[at]) above.add(at);
  const byKind = new Map<string, KindTotal>();
  const groups: number[][] = [];
  let processes = 0;
  let cpu = 0;
  tree.records.forEach((record, index) => {
    if (record.ppid !== 1 || tree.parents[index] !== undefined || above.has(index)) return;
    if (record.started < root.started || record.started > root.started + root.elapsed) return;
    // The adopted process and what it started: an engine's zygote or forkserver takes its content processes along.
    const group = subtree(tree, index);
    groups.push(group);
    const engine = engineOfSubtree(tree, group);
    const kind = engine ? KINDS[engine] : isJvm(record.comm) ? 'JVM' : record.comm;
    const groupCpu = group.reduce((sum, member) => sum + (tree.records[member] as ProcessRecord).cpu, 0);
    const total = byKind.get(kind) ?? { processes: 0, cpu: 0 };
    byKind.set(kind, { processes: total.processes + group.length, cpu: total.cpu + groupCpu });
    processes += group.length;
    cpu += groupCpu;
  });
  return { processes, cpu, groups, byKind: [...byKind].map(([kind, total]) => ({ kind, ...total })).sort((a, b) => b.cpu - a.cpu) };
}

/** The middle value (the mean of the two middle ones for an even count), or 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
