import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCycles, importGraph, sourceFiles } from '../support/source-imports';

/**
 * No module of what ships is part of an import cycle, type imports included
 * (docs/architecture.md#where-things-are-in-the-code). The bundle graph of
 * test/repo/import-graph.test.ts sees value imports only, so a cycle made
 * through `import type` passed it; this rule reads the source itself.
 */
const ROOT = join(__dirname, '..', '..');

/** Cycles known and accepted: none (the issue model's ended when it moved into lambda/issues/, issue 29). */
const KNOWN_CYCLES: string[][] = [];

/** The cycles the rule finds among these files, written to a folder of their own. */
function cyclesAmong(sources: Record<string, string>): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycle-'));
  try {
    for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, name), text);
    return importCycles(importGraph(dir, sourceFiles(dir, '.')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('import cycles', () => {
  test('the rule finds a cycle made of type-only imports', () => {
    const cycles = cyclesAmong({
      'a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
      'b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
      'c.ts': "import type { A } from './a';\nexport type C = A;\n",
    });
    expect(cycles).toEqual([['a.ts', 'b.ts']]);
  });

  test('the rule finds a cycle through a re-export', () => {
    const cycles = cyclesAmong({
      'a.ts': "export type { B } from './b';\nexport const a = 1;\n",
      'b.ts': "import { a } from './a';\nexport type B = typeof a;\n",
    });
    expect(cycles).toEqual([['a.ts', 'b.ts']]);
  });

  test('no module of bin, lib, lambda or local is part of an import cycle, type imports included', () => {
    const files = ['bin', 'lib', 'lambda', 'local'].flatMap((dir) => sourceFiles(ROOT, dir));
    const known = new Set(KNOWN_CYCLES.map((cycle) => cycle.join(' ↔ ')));
    const cycles = importCycles(importGraph(ROOT, files)).map((cycle) => cycle.join(' ↔ '));
    expect(cycles.filter((cycle) => !known.has(cycle))).toEqual([]);
  });
});
