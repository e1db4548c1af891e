import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { folderGraph, importCycles, importGraph, sourceFiles, specifiersOf } from '../support/source-imports';

/**
 * No module of what ships, nor of the tools, is part of an import cycle, type
 * imports included (docs/architecture.md#where-things-are-in-the-code). The
 * bundle graph of test/repo/import-graph.test.ts sees value imports only,
 * so a cycle made through `import type` passed it; this rule reads the
 * source itself. Nor are folders: a folder that imports another folder
 * which imports it back is one module in two places, even when no two files
 * make a cycle.
 */
const ROOT = join(__dirname, '..', '..');

/** Cycles known and accepted: none (the issue model's ended when it moved into lambda/ingest/issues/, issue 29). */
const KNOWN_CYCLES: string[][] = [];

const CHECKED = ['bin', 'lib', 'lambda', 'local', 'tools'];

/**
 * A file's folder for the folder rule: the area under lambda/, local/ and
 * tools/ (lambda/infrastructure/store, local/console/control-room, tools/fuzz: their subfolders are
 * part of them), the top folder otherwise.
 */
const folderOf = (file: string): string => {
  const parts = file.split('/');
  // A face's or the harness's parts are rooms of their own (lambda/ingest/tally, local/console/control-room), a tool is one.
  const depth = parts[0] === 'tools' ? 2 : 3;
  return ['lambda', 'local', 'tools'].includes(parts[0] as string) && parts.length > 2
    ? parts.slice(0, Math.min(depth, parts.length - 1)).join('/')
    : (parts[0] as string);
};

/**
 * What composes a function from its folders is left out of the folder rule:
 * a Lambda entry point and a wiring module (docs/architecture.md, the naming
 * convention) import the adapters of lambda/infrastructure/store on purpose.
 */
const composes = (file: string): boolean => /-(entry|wiring)\.ts$/.test(file);

/** The graph the rule reads among these files, written to a folder of their own. */
function graphAmong(sources: Record<string, string>): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycle-'));
  try {
    for (const [name, text] of Object.entries(sources)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return importGraph(dir, sourceFiles(dir, '.'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cyclesAmong = (sources: Record<string, string>): string[][] => importCycles(graphAmong(sources));

describe('import cycles', () => {
  test('the rule reads every way a file names another, in source order, and no module named inside a string', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-forms-'));
    try {
      const source = [
        "import { a } from './static';",
        "import type { B } from './type-only';",
        "export { c } from './re-export';",
        "export * from './re-export-all';",
        "import fs = require('node:fs');",
        "type D = import('./type-position').D;",
        "const e = () => import('./dynamic');",
        "const f = require('./required');",
        "const text = `import('./in-a-template')` + \"require('./in-a-string')\";",
        'export const all = [a, fs, e, f, text];',
        'export type Both = B | D;',
      ].join('\n');
      writeFileSync(join(dir, 'forms.ts'), source);
      expect(specifiersOf(dir, 'forms.ts')).toEqual([
        './static',
        './type-only',
        './re-export',
        './re-export-all',
        'node:fs',
        './type-position',
        './dynamic',
        './required',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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

  test('the rule finds a cycle between folders that no two files make, and leaves out what composes them', () => {
    const graph = graphAmong({
      'lambda/infrastructure/store/adapter.ts': "import type { Port } from '../../control/ports';\nexport const adapter = (port: Port) => port;\n",
      'lambda/control/ports.ts': 'export interface Port { kind: string }\n',
      'lambda/control/view.ts': "import { SCHEMA } from '../infrastructure/store/schema';\nexport const view = SCHEMA;\n",
      'lambda/infrastructure/store/schema.ts': "export const SCHEMA = 'pk';\n",
      'lambda/ingest/tally/tally-wiring.ts': "import { adapter } from '../../infrastructure/store/adapter';\nexport const wired = adapter;\n",
      'lambda/infrastructure/store/uses-tally.ts': "import { wired } from '../../ingest/tally/tally-wiring';\nexport const back = wired;\n",
    });
    expect(importCycles(graph)).toEqual([]);
    expect(importCycles(folderGraph(graph, folderOf, composes).graph)).toEqual([['lambda/control', 'lambda/infrastructure/store']]);
  });

  test('no module of bin, lib, lambda, local or tools is part of an import cycle, type imports included', () => {
    const files = CHECKED.flatMap((dir) => sourceFiles(ROOT, dir));
    const known = new Set(KNOWN_CYCLES.map((cycle) => cycle.join(' ↔ ')));
    const cycles = importCycles(importGraph(ROOT, files)).map((cycle) => cycle.join(' ↔ '));
    expect(cycles.filter((cycle) => !known.has(cycle))).toEqual([]);
  });

  test('no two folders of bin, lib, lambda, local or tools import each other, through any of their files (entry points and wiring aside)', () => {
    const files = CHECKED.flatMap((dir) => sourceFiles(ROOT, dir));
    const folders = folderGraph(importGraph(ROOT, files), folderOf, composes);
    // Each cycle with the imports that make it, so a failure says what to move.
    const found = importCycles(folders.graph).map((cycle) => ({
      cycle,
      imports: cycle.flatMap((from) => cycle.flatMap((to) => folders.imports.get(`${from} → ${to}`) ?? [])),
    }));
    expect(found).toEqual([]);
  });
});
