import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from '@swc/core';

/**
 * Every regular expression of the code that ships (lambda/: what runs on
 * what visitors and backends send), as the checker of test/repo/linear-regexes.test.ts
 * and `npm run regexes` read them: each literal with where it is, and every
 * place that builds one at run time (`new RegExp(…)`), which those name
 * one by one.
 */

export interface RegexLiteral {
  /** Path from the project root. */
  file: string;
  line: number;
  source: string;
  flags: string;
}

/** One regular expression as the verdicts name it: `/source/flags`. */
export const regexKey = ({ source, flags }: { source: string; flags: string }): string => `/${source}/${flags}`;

/** The folders whose code ships. */
export const SHIPPED_DIRS = ['lambda'] as const;

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return tsFiles(root, path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = 0; at < offset && at < text.length; at += 1) if (text.charCodeAt(at) === 10) line += 1;
  return line;
}

interface Found {
  literals: RegexLiteral[];
  /** `new RegExp(…)` and `RegExp(…)` calls: file and line. */
  constructed: { file: string; line: number }[];
}

/** The regular expressions of one file. */
function regexesOf(root: string, file: string): Found {
  // A first statement at offset 0, so that the module's span starts where the file does (swc's spans count on from
  // earlier parses, and a module's span starts at its first token, after any leading comment).
  const text = `0;\n${readFileSync(join(root, file), 'utf8')}`;
  const module = parseSync(text, { syntax: 'typescript', target: 'es2022' });
  const base = module.span.start;
  const found: Found = { literals: [], constructed: [] };
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const fields = node as Record<string, unknown> & { type?: string; span?: { start: number } };
    // Spans are in UTF-8 bytes; the sentinel line is not the file's.
    const at = () =>
      lineAt(
        text,
        Buffer.from(text)
          .subarray(0, (fields.span?.start ?? base) - base)
          .toString('utf8').length,
      ) - 1;
    if (fields.type === 'RegExpLiteral') found.literals.push({ file, line: at(), source: fields.pattern as string, flags: fields.flags as string });
    if (fields.type === 'NewExpression' || fields.type === 'CallExpression') {
      const callee = fields.callee as { type?: string; value?: string } | undefined;
      if (callee?.type === 'Identifier' && callee.value === 'RegExp') found.constructed.push({ file, line: at() });
    }
    for (const value of Object.values(fields)) visit(value);
  };
  visit(module.body);
  return found;
}

/** Every regular expression of the shipped code. */
export function shippedRegexes(root: string): Found {
  const all: Found = { literals: [], constructed: [] };
  for (const dir of SHIPPED_DIRS) {
    for (const file of tsFiles(root, dir).sort()) {
      const found = regexesOf(root, file);
      all.literals.push(...found.literals);
      all.constructed.push(...found.constructed);
    }
  }
  return all;
}
