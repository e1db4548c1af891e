import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { ROOT } from '../support/commands';
import { anchorsOf } from '../support/markdown';

/**
 * What the code cites, a reader of the code can open: every Markdown page a
 * source file names (`docs/contacts-api.md#limits`) exists in the
 * repository, with that heading; and nothing cites the specification by
 * its section numbers: the repository does not hold it, and the docs/ pages
 * say it in this project's words.
 */
const FOLDERS = ['lambda', 'lib', 'local', 'client', 'tools', 'openapi', 'test'];
const SKIP = new Set(['node_modules', 'dist', 'cdk.out']);

function sources(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs|cjs|sh)$/.test(name) ? [path] : [];
  });
}

const files = FOLDERS.flatMap(sources);

/** The comment on a line of code, if any: a line of a block comment, or what follows `//`. */
function commentOf(line: string): string | undefined {
  if (/^\s*(\/\*|\*|\/\/|#)/.test(line)) return line;
  const inline = line.indexOf(' // ');
  return inline === -1 ? undefined : line.slice(inline);
}

/** Where a cited page is: from the repository's root, or next to the citing file. */
function resolve(file: string, page: string): string | undefined {
  return [normalize(page), normalize(join(dirname(file), page))].find((candidate) => !candidate.startsWith('..') && existsSync(join(ROOT, candidate)));
}

describe('citations in the code', () => {
  test('cover every source folder', () => {
    expect(FOLDERS.filter((folder) => !files.some((file) => file.startsWith(`${folder}/`)))).toEqual([]);
  });

  test('every Markdown page a comment names exists in the repository, with the heading it names', () => {
    const broken = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          [...(commentOf(line) ?? '').matchAll(/([\w./-]*[\w-]+\.md)(?:#([\w-]+))?/g)].flatMap((match) => {
            const [cited, page = '', anchor] = match;
            const found = resolve(file, page);
            if (!found) return [`${file}:${index + 1}: ${cited} (no such page in the repository)`];
            if (anchor && !anchorsOf(readFileSync(join(ROOT, found), 'utf8')).has(anchor)) return [`${file}:${index + 1}: ${cited} (no such heading)`];
            return [];
          }),
        ),
    );
    expect(broken).toEqual([]);
  });

  test('nothing cites the specification by section number', () => {
    const cited = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\b[Ss]pec(ification)?('s)? ?§?\d/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(cited).toEqual([]);
  });
});
