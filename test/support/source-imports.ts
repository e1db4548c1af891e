import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  parseSync,
  type CallExpression,
  type ExportAllDeclaration,
  type ExportNamedDeclaration,
  type ImportDeclaration,
  type TsExternalModuleReference,
  type TsImportType,
} from '@swc/core';

/**
 * The project's own import graph as the source says it, type imports
 * included (`import type`, `export … from`, `import()`): what a bundler's
 * graph leaves out, since types never reach a bundle. For the layout rules
 * (test/repo/layout.test.ts, test/repo/import-cycles.test.ts).
 */

/** Every .ts file under `dir` (relative to `root`), as a path relative to `root`. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? sourceFiles(root, path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The module a syntax node names, when it is an import, a re-export, an `import()` (of a value or a type) or a `require()`. */
function specifierOf(node: { type: string }): string | undefined {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
    case 'ExportNamedDeclaration':
      return (node as ImportDeclaration | ExportAllDeclaration | ExportNamedDeclaration).source?.value;
    case 'CallExpression': {
      const {
        callee,
        arguments: [first],
      } = node as CallExpression;
      const loads = callee.type === 'Import' || (callee.type === 'Identifier' && callee.value === 'require');
      return loads && first?.expression.type === 'StringLiteral' ? first.expression.value : undefined;
    }
    case 'TsImportType':
      return (node as TsImportType).argument.value;
    case 'TsExternalModuleReference':
      return (node as TsExternalModuleReference).expression.value;
    default:
      return undefined;
  }
}

/**
 * Every module specifier a file imports or re-exports: static, dynamic and type-only alike, in source order. Read
 * from swc's syntax tree (the parser the tests' transform already uses): TypeScript 7 has no stable compiler API.
 */
export function specifiersOf(root: string, file: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const specifier = specifierOf(node as { type: string });
    if (specifier !== undefined) found.push(specifier);
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseSync(readFileSync(join(root, file), 'utf8'), { syntax: 'typescript', target: 'es2022' }).body);
  return found;
}

/** A relative specifier as the file it names (`.ts` or a folder's index.ts); undefined for a package. */
function resolve(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(join(root, candidate)));
}

/** The graph of `files`: each file with the files of the project it imports. */
export function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, specifiersOf(root, file).flatMap((specifier) => resolve(root, file, specifier) ?? [])]));
}

/** The import cycles of a graph: each a set of modules that reach one another, sorted (Tarjan's strongly connected components). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module) as number);
    stack.push(module);
    onStack.add(module);
    for (const imported of graph.get(module) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        low.set(module, Math.min(low.get(module) as number, low.get(imported) as number));
      } else if (onStack.has(imported)) {
        low.set(module, Math.min(low.get(module) as number, index.get(imported) as number));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const members: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      members.push(top);
      if (top === module) break;
    }
    if (members.length > 1 || (graph.get(module) ?? []).includes(module)) cycles.push(members.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/**
 * The graph between folders that a file graph makes: an edge from one
 * folder to another wherever a file of the first imports a file of the
 * second, each edge with the imports that make it. `folderOf` names a
 * file's folder; files `leftOut` (say, the wiring that composes a
 * function from its folders) make no edges.
 */
export function folderGraph(
  graph: ReadonlyMap<string, readonly string[]>,
  folderOf: (file: string) => string,
  leftOut: (file: string) => boolean = () => false,
): { graph: Map<string, string[]>; imports: Map<string, string[]> } {
  const edges = new Map<string, Set<string>>();
  const imports = new Map<string, string[]>();
  for (const [file, imported] of graph) {
    if (leftOut(file)) continue;
    const from = folderOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const target of imported) {
      const to = folderOf(target);
      if (to === from) continue;
      edges.get(from)?.add(to);
      imports.set(`${from} → ${to}`, [...(imports.get(`${from} → ${to}`) ?? []), `${file} → ${target}`]);
    }
  }
  return { graph: new Map([...edges].map(([folder, targets]) => [folder, [...targets].sort()])), imports };
}
