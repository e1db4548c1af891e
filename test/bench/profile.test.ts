import { areaOf, summarizeProfiles, type CpuProfile } from '../../tools/bench/profile';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0 },
  children,
});

describe('areaOf', () => {
  it('names packages, project folders, Node built-ins and V8', () => {
    expect(areaOf('file:///p/node_modules/@smithy/core/dist-cjs/index.js', 'f')).toBe('@smithy/core');
    expect(areaOf('/p/node_modules/zod/v4/mini.js', 'f')).toBe('zod');
    expect(areaOf('file:///work/main/lambda/infrastructure/http/middleware/request-id.ts', 'f')).toBe('lambda/infrastructure/http/middleware');
    expect(areaOf('node:internal/streams/writable', 'f')).toBe('node:streams');
    expect(areaOf('', '(garbage collector)')).toBe('(garbage collector)');
    expect(areaOf('', 'writev')).toBe('(native)');
  });
});

describe('summarizeProfiles', () => {
  // root ─ sdk ─ node:net ─ writev (native)      : charged to the SDK
  //      ─ node:_http_server ─ parse (native)    : Node, no package on the stack
  //      ─ tools/bench counter ─ logger        : the logger (the counter is transparent)
  //      ─ (idle)
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 5, 7, 9]),
      frame(2, 'send', '/p/node_modules/@smithy/core/index.js', [3]),
      frame(3, 'write', 'node:net', [4]),
      frame(4, 'writev', ''),
      frame(5, 'onRequest', 'node:_http_server', [6]),
      frame(6, 'execute', ''),
      frame(7, 'count', '/work/main/tools/bench/serve.ts', [8]),
      frame(8, 'info', '/p/node_modules/@aws-lambda-powertools/logger/index.js'),
      frame(9, '(idle)', ''),
    ],
    samples: [4, 4, 6, 8, 7, 9],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 5000],
  };

  it('charges each sample to the nearest package or project file on its stack', () => {
    const summary = summarizeProfiles([profile]);
    expect(summary.busyMs).toBe(5);
    expect(summary.idleMs).toBe(5);
    const owners = Object.fromEntries(summary.byOwner.map((line) => [line.name, line.ms]));
    expect(owners).toEqual({
      '@smithy/core': 2,
      'node:_http_server (Node, no package on the stack)': 1,
      '@aws-lambda-powertools/logger': 1,
      // A sample in the counter itself, with nothing of ours above it.
      'tools/bench': 1,
    });
    const families = Object.fromEntries(summary.byOwnerFamily.map((line) => [line.name, line.ms]));
    expect(families['AWS SDK v3 (@aws-sdk, @smithy and their dependencies)']).toBe(2);
  });

  it('adds several profiles together', () => {
    expect(summarizeProfiles([profile, profile]).busyMs).toBe(10);
  });
});
