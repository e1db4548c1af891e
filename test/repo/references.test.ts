import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brokenPath, commentsOf, fileNamesIn, moduleFacts, parsed, pathsIn, resolveSpecifier } from '../support/source-references';

/**
 * What the sources say about the rest of the repository stays true: a path a
 * comment names exists (after a move, the comment moves with the file), and
 * an exported name is read somewhere. docs/ has its own check of the paths
 * it names (test/repo/docs.test.ts).
 */
const ROOT = join(__dirname, '..', '..');

/** What a build, an install or a run writes: never read as the project's sources. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'cdk.out', '.data', 'coverage', '.node22', '.client-types', '.git']);

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    if (NOT_SOURCES.has(name)) return [];
    const path = dir === '' ? name : join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return dir === '' && name.startsWith('.') ? [] : filesUnder(path, keep);
    return keep(path) ? [path] : [];
  });
}

const sources = filesUnder('', (file) => /\.(ts|js|mjs|cjs)$/.test(file) && !file.endsWith('.d.ts'));
const fileNames = new Set(filesUnder('', () => true).map((file) => basename(file)));

/** Each source read and parsed once, for every test below. */
const read = new Map(
  sources.map((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const tree = parsed(text);
    return [file, { text, comments: commentsOf(text, tree), facts: moduleFacts(text, tree) }];
  }),
);
const source = (file: string) => read.get(file) as NonNullable<ReturnType<typeof read.get>>;

describe('references in the sources', () => {
  test('the check reads the sources of every part: the functions, the commands, the stack, the SDK, the client, the tools and the tests', () => {
    expect(sources).toEqual(
      expect.arrayContaining([
        'lambda/ingest/payloads.ts',
        'local/harness/host.ts',
        'lib/tables.ts',
        'browser-sdk/src/batch.ts',
        'client/src/index.ts',
        'tools/fuzz/oracle.ts',
        'test/support/until.ts',
        'jest.config.js',
      ]),
    );
  });

  test('finds a path in each form a comment writes one, and leaves patterns alone', () => {
    const comment =
      '// see lambda/kernel/email.ts, ./batch.ts, ../kernel/cursor.ts and docs/alerts.md#the-payload; not test/<module path>.test.ts nor lib/*.ts';
    expect(pathsIn(comment).map((named) => named.path)).toEqual(['lambda/kernel/email.ts', './batch.ts', '../kernel/cursor.ts', 'docs/alerts.md#the-payload']);
    expect(fileNamesIn('/** the Lambda entry (contacts-entry.ts), not lambda/x.ts */').map((named) => named.path)).toEqual(['contacts-entry.ts']);
    expect(brokenPath(ROOT, 'lambda/ingest/issues/issue-list.ts', '../domain/cursor.ts')).toBe('lambda/ingest/domain/cursor.ts does not exist');
    expect(brokenPath(ROOT, 'lambda/alerts/alert.ts', 'docs/alerts.md#no-such-heading')).toBe('docs/alerts.md has no heading #no-such-heading');
    expect(brokenPath(ROOT, 'lambda/alerts/alert.ts', 'docs/alerts.md#the-payload')).toBeUndefined();
  });

  test('reads comments only: a path in a string, a template or a regular expression is code, not a comment', () => {
    const text = [
      "const a = 'lambda/gone.ts // not a comment';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, as a string
      'const b = `/* docs/gone.md */ ${a}`;',
      'const c = /\\/\\/ lambda\\/gone/;',
      '// the comment: lambda/kernel/email.ts',
      '/* a block',
      '   naming ./here.ts */',
    ].join('\n');
    expect(commentsOf(text)).toEqual([
      { line: 4, text: '// the comment: lambda/kernel/email.ts' },
      { line: 5, text: '/* a block\n   naming ./here.ts */' },
    ]);
  });

  test('every path a comment names exists: repo-relative, relative to its file, and a page with its heading', () => {
    const broken = sources.flatMap((file) =>
      source(file).comments.flatMap((comment) =>
        pathsIn(comment.text).flatMap(({ path, line }) => {
          const problem = brokenPath(ROOT, file, path);
          return problem ? [`${file}:${comment.line + line}: ${path} (${problem})`] : [];
        }),
      ),
    );
    expect(broken).toEqual([]);
  });

  test('every TypeScript file a comment names alone is a file of the repository', () => {
    const unknown = sources.flatMap((file) =>
      source(file).comments.flatMap((comment) =>
        fileNamesIn(comment.text).flatMap(({ path, line }) => (fileNames.has(path) ? [] : [`${file}:${comment.line + line}: ${path}`])),
      ),
    );
    expect(unknown).toEqual([]);
  });

  /**
   * Exports read from outside the repository's imports: the packages' public entries, each Lambda entry's
   * `handler` (the stack names it), the stand-ins for AWS SDK packages (the bundle aliases them), and a type
   * that exists only to fail the compile (it must be exported to be unused).
   */
  const READ_FROM_OUTSIDE: [RegExp, RegExp][] = [
    [/^(browser-sdk\/src|client\/src)\/index\.ts$/, /./],
    [/-entry\.ts$/, /^handler$/],
    [/^lambda\/infrastructure\/aws-sdk\//, /./],
    [/^lambda\/control\/answers\.ts$/, /^EveryOperationAnswered$/],
  ];

  test('every exported name is read somewhere: imported by another file, or used in its own', () => {
    const facts = new Map(sources.map((file) => [file, source(file).facts]));
    const imported = new Map<string, Set<string>>();
    for (const [file, { imports }] of facts)
      for (const { specifier, names } of imports) {
        const target = resolveSpecifier(ROOT, file, specifier);
        if (target) imported.set(target, new Set([...(imported.get(target) ?? []), ...names]));
      }
    const dead = [...facts].flatMap(([file, { exports }]) => {
      const taken = imported.get(file) ?? new Set<string>();
      if (file.startsWith('test/') || taken.has('*')) return [];
      const { text } = source(file);
      return exports
        .filter((name) => name !== 'default' && !taken.has(name))
        .filter((name) => !READ_FROM_OUTSIDE.some(([files, names]) => files.test(file) && names.test(name)))
        .filter((name) => (text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g')) ?? []).length < 2)
        .map((name) => `${file}: ${name}`);
    });
    expect(dead).toEqual([]);
  });
});
