import { readFileSync } from 'node:fs';
import { familyOf, packageOf } from './packages';

/** Where a process's CPU time went, from a V8 .cpuprofile (the format `node --cpu-prof` writes). */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface CostLine {
  name: string;
  ms: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  /**
   * Each sample charged to the code responsible for it: the nearest package
   * or project file on its stack (so a socket write the SDK makes counts for
   * the SDK), grouped into families.
   */
  byOwnerFamily: CostLine[];
  byOwner: CostLine[];
  /** Self time by function. */
  topFunctions: CostLine[];
}

/**
 * The area of a frame: an npm package, a folder of this project, a Node
 * built-in module, or V8 itself (`(garbage collector)`, `(program)`, …).
 */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:'))
    return `node:${
      url
        .slice(5)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  if (url.includes('/node_modules/')) return packageOf(url);
  const project = /\/(lambda|local|tools)\/(.+)$/.exec(url);
  if (project) {
    const folder = (project[2] ?? '').split('/').slice(0, -1).join('/');
    return `${project[1]}/${folder}`.replace(/\/$/, '');
  }
  return url;
}

/**
 * Code someone chose to run: a package or a project folder, not Node or V8
 * internals. The benchmark's own counters around the service are
 * transparent: a log line's write is charged to the logger, not to them.
 */
const isOwner = (area: string) => !area.startsWith('node:') && !area.startsWith('(') && !area.startsWith('tools/bench');

const lines = (totals: Map<string, number>, busyMs: number, top: number): CostLine[] =>
  [...totals.entries()]
    .map(([name, ms]) => ({ name, ms, share: busyMs > 0 ? ms / busyMs : 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);

const add = (totals: Map<string, number>, key: string, ms: number) => totals.set(key, (totals.get(key) ?? 0) + ms);

/** One summary over several profiles (each workload's, say). */
export function summarizeProfiles(profiles: CpuProfile[], top = 12): ProfileSummary {
  const owners = new Map<string, number>();
  const families = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  for (const profile of profiles) {
    const times = chargeSamples(profile, owners, families, functions);
    idleMs += times.idleMs;
    busyMs += times.busyMs;
  }
  return {
    busyMs,
    idleMs,
    byOwnerFamily: lines(families, busyMs, top),
    byOwner: lines(owners, busyMs, top),
    topFunctions: lines(functions, busyMs, top),
  };
}

function chargeSamples(
  profile: CpuProfile,
  owners: Map<string, number>,
  families: Map<string, number>,
  functions: Map<string, number>,
): { busyMs: number; idleMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // The owner of each node, computed once per node rather than per sample.
  const ownerCache = new Map<number, string>();
  const ownerAbove = (id: number): string | undefined => {
    const up = parent.get(id);
    return up === undefined || byId.get(up)?.callFrame.functionName === '(root)' ? undefined : ownerOf(up);
  };
  const ownerOf = (id: number): string => {
    const cached = ownerCache.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id) as ProfileNode;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    let owner: string;
    if (isOwner(area)) owner = area;
    else if (area === '(garbage collector)' || area === '(program)') owner = area;
    else if (area.startsWith('tools/bench')) owner = ownerAbove(id) ?? area;
    else {
      const above = ownerAbove(id);
      // Nothing of ours above: Node's own work (the HTTP server parsing a request, timers, the event loop).
      owner = above && isOwner(above) ? above : area.startsWith('node:') ? `${area} (Node, no package on the stack)` : (above ?? area);
    }
    ownerCache.set(id, owner);
    return owner;
  };

  let idleMs = 0;
  let busyMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    const owner = ownerOf(id);
    // The profiler's own work (the inspector session) is not the profiled code's.
    if (owner.startsWith('node:inspector')) return;
    busyMs += ms;
    add(owners, owner, ms);
    add(families, isOwner(owner) ? familyOf(owner) : owner.startsWith('node:') ? 'Node built-ins, no package on the stack' : owner, ms);
    const where = url ? ` ${url.replace(/^.*\/(node_modules|lambda|local|tools)\//, '$1/')}:${lineNumber + 1}` : '';
    add(functions, `${functionName || '(anonymous)'}${where}`, ms);
  });
  return { busyMs, idleMs };
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}
