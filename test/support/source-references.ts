import { parseSync, type Module } from '@swc/core';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { anchorsOf } from './markdown';

/**
 * What the sources say about other files, for test/repo/references.test.ts:
 * the paths their comments name, and which of their exports anything
 * imports. Read from swc's syntax tree, like the import graph
 * (test/support/source-imports.ts).
 */

/** A file's syntax tree and the byte offset its spans start at (swc numbers spans across every file it parsed). */
export function parsed(text: string): { module: Module; base: number } {
  // A leading `;` is an empty statement at the file's first byte: its span gives the offset. A shebang line is blanked.
  const source = `;${text.replace(/^#!.*/, (line) => ' '.repeat(line.length))}`;
  const module = parseSync(source, { syntax: 'typescript', target: 'es2022' });
  const first = module.body[0] as { span: { start: number } };
  return { module, base: first.span.start + 1 };
}

/** Node types whose text is data, not code: what may hold `//` or `/*` without being a comment. */
const LITERALS = new Set(['StringLiteral', 'TemplateElement', 'RegExpLiteral']);

export interface Comment {
  line: number;
  text: string;
}

/** A TypeScript file's comments (line and block), with the line each starts on. */
export function commentsOf(text: string, tree = parsed(text)): Comment[] {
  const { module, base } = tree;
  const bytes = Buffer.from(text, 'utf8');
  // Blank every literal, so that what remains of `//` and `/*` opens a comment.
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const { type, span } = node as { type?: string; span?: { start: number; end: number } };
    if (type && LITERALS.has(type) && span) bytes.fill(0x20, Math.max(0, span.start - base), Math.max(0, span.end - base));
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(module.body);
  const masked = bytes.toString('utf8');
  const comments: Comment[] = [];
  const lineAt = (offset: number) => masked.slice(0, offset).split('\n').length;
  for (const match of masked.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)) {
    // The masked text has the original's byte layout: read the comment from the original.
    const start = Buffer.byteLength(masked.slice(0, match.index));
    const end = start + Buffer.byteLength(match[0]);
    comments.push({ line: lineAt(match.index), text: Buffer.from(text, 'utf8').subarray(start, end).toString('utf8') });
  }
  return comments;
}

/** Top folders of the repository a comment may name a path under. */
const TOP = 'lambda|local|lib|bin|docs|test|tools|client|browser-sdk|openapi|bench';
const PATH = new RegExp(`(?<![\\w./@-])((?:${TOP})/[\\w./#<>*-]*|\\.\\.?/[\\w./#<>*-]+)`, 'g');
/** A TypeScript file named alone (`contacts-entry.ts`), not as part of a path or a pattern. */
const BARE_TS = /(?<![\w./@<*-])([\w-]+\.ts)\b/g;

export interface NamedPath {
  path: string;
  /** The comment's line it is on, counted from 0. */
  line: number;
}

const lineIn = (text: string, index: number) => text.slice(0, index).split('\n').length - 1;

/**
 * The paths a comment names, in the forms checked: repo-relative (a file,
 * a folder, a page with its heading after `#`) and relative to the file
 * (`./`, `../`). Patterns (`*`, `<module path>`) and what a build writes
 * (`dist/`) are no file to check.
 */
export function pathsIn(comment: string): NamedPath[] {
  const found: NamedPath[] = [];
  for (const match of comment.matchAll(PATH)) {
    const path = (match[1] as string).replace(/[.,:;]+$/, '');
    if (/[<>*]/.test(path) || /(^|\/)(dist|node_modules|cdk\.out)(\/|$)/.test(path)) continue;
    found.push({ path, line: lineIn(comment, match.index) });
  }
  return found;
}

/** The TypeScript files a comment names alone, by their file name (`contacts-entry.ts`). */
export function fileNamesIn(comment: string): NamedPath[] {
  return [...comment.matchAll(BARE_TS)].map((match) => ({ path: match[1] as string, line: lineIn(comment, match.index) }));
}

/** Why `path` (named in `file`'s comment) does not resolve, or undefined when it does. */
export function brokenPath(root: string, file: string, path: string): string | undefined {
  const [target, anchor] = path.split('#') as [string, string | undefined];
  const resolved = target.startsWith('.') ? normalize(join(dirname(file), target)) : target;
  // A module named as an import names it (`test/alerts/two-containers`): with its extension left off.
  const exists = ['', '.ts', '.test.ts'].some((suffix) => existsSync(join(root, resolved + suffix)));
  if (target !== '' && !exists) return `${resolved} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  const page = target === '' ? file : resolved;
  if (!page.endsWith('.md') || statSync(join(root, page)).isDirectory()) return undefined;
  return anchorsOf(readFileSync(join(root, page), 'utf8')).has(anchor) ? undefined : `${page} has no heading #${anchor}`;
}

/** What a module exports by name (`export default` as "default"); `export *` re-exports are in `reexportsAll`. */
export interface ModuleFacts {
  exports: string[];
  /** For each module it imports from (as a specifier): the names it takes, or '*' for the whole module. */
  imports: { specifier: string; names: string[] }[];
}

type Named = { type: string; value?: string; span?: unknown };

const nameOf = (node: Named | undefined): string | undefined =>
  node && (node.type === 'Identifier' || node.type === 'StringLiteral') ? node.value : undefined;

/** A module's exports and what it takes from others. */
export function moduleFacts(text: string, tree = parsed(text)): ModuleFacts {
  const { module } = tree;
  const exports: string[] = [];
  const imports: ModuleFacts['imports'] = [];
  for (const item of module.body as unknown as Record<string, unknown>[]) {
    switch (item.type) {
      case 'ExportDeclaration': {
        const declaration = item.declaration as { type: string; identifier?: Named; id?: Named; declarations?: { id: Named }[] };
        if (declaration.type === 'VariableDeclaration') exports.push(...(declaration.declarations ?? []).flatMap((d) => nameOf(d.id) ?? []));
        else exports.push(...[nameOf(declaration.identifier) ?? nameOf(declaration.id)].flatMap((name) => name ?? []));
        break;
      }
      case 'ExportDefaultDeclaration':
      case 'ExportDefaultExpression':
        exports.push('default');
        break;
      case 'ExportNamedDeclaration': {
        const specifiers = item.specifiers as { type: string; orig?: Named; exported?: Named; name?: Named }[];
        const source = (item.source as { value: string } | undefined)?.value;
        for (const specifier of specifiers) {
          const exported = nameOf(specifier.exported) ?? nameOf(specifier.orig) ?? nameOf(specifier.name);
          if (exported) exports.push(exported);
        }
        if (source)
          imports.push({
            specifier: source,
            names: specifiers.map((specifier) => (specifier.type === 'ExportNamespaceSpecifier' ? '*' : (nameOf(specifier.orig) ?? '*'))),
          });
        break;
      }
      case 'ExportAllDeclaration':
        imports.push({ specifier: (item.source as { value: string }).value, names: ['*'] });
        break;
      case 'ImportDeclaration': {
        const specifiers = item.specifiers as { type: string; imported?: Named; local: Named }[];
        imports.push({
          specifier: (item.source as { value: string }).value,
          names: specifiers.map((specifier) =>
            specifier.type === 'ImportDefaultSpecifier'
              ? 'default'
              : specifier.type === 'ImportNamespaceSpecifier'
                ? '*'
                : (nameOf(specifier.imported) ?? nameOf(specifier.local) ?? '*'),
          ),
        });
        break;
      }
    }
  }
  // Every other way a module is loaded (`import()`, `require()`, `jest.requireActual()`, `import('x').T` in a type) takes it whole.
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown> & { type?: string };
    if (record.type === 'CallExpression') {
      const callee = record.callee as { type: string; value?: string; property?: { value?: string } };
      const first = (record.arguments as { expression: { type: string; value?: string } }[])[0]?.expression;
      const loads =
        callee.type === 'Import' ||
        (callee.type === 'Identifier' && callee.value === 'require') ||
        (callee.type === 'MemberExpression' && /^require(Actual|Mock)$/.test(callee.property?.value ?? ''));
      if (loads && first?.type === 'StringLiteral' && first.value) imports.push({ specifier: first.value, names: ['*'] });
    }
    if (record.type === 'TsImportType') imports.push({ specifier: (record.argument as { value: string }).value, names: ['*'] });
    for (const value of Object.values(record)) if (value && typeof value === 'object') visit(value);
  };
  visit(module.body);
  return { exports, imports };
}

/** A relative specifier as the file of the project it names (`.ts`, `.js` written for `.ts`, a folder's index.ts, a `.js` file). */
export function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(from), specifier);
  const candidates = [`${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts'), base];
  return candidates.find((candidate) => /\.(ts|js)$/.test(candidate) && existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile());
}
