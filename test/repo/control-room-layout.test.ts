import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from '../support/source-imports';

/**
 * How the control room's code is laid out (docs/development.md#add-a-control-room-page):
 * the function's operations one shape over shared fields and one error,
 * its ports in one module; the web app's pages rendered one way, their
 * route parameters named, patterns imported from where they are defined.
 */
const ROOT = join(__dirname, '..', '..');
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const control = sourceFiles(ROOT, 'lambda/control');
const app = sourceFiles(ROOT, 'local/console/control-room');
const pages = sourceFiles(ROOT, 'local/console/control-room/routes');

/** `file: line` for each line of `files` matching `pattern`. */
const linesMatching = (files: readonly string[], pattern: RegExp) =>
  files.flatMap((file) =>
    source(file)
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );

describe('the control-room function (lambda/control)', () => {
  test('every port is declared in ports.ts', () => {
    expect(
      linesMatching(
        control.filter((file) => file !== 'lambda/control/ports.ts'),
        /^export interface \w*(Port|Store|Dependencies)\b/,
      ),
    ).toEqual([]);
  });

  test('one error type, carrying its status: ControlError', () => {
    expect(linesMatching(control, /class \w+ extends Error\b/)).toEqual([
      expect.stringMatching(/^lambda\/control\/operation\.ts:\d+: export class ControlError extends Error/),
    ]);
  });

  test('the id, cursor and page-size fields are declared once, in fields.ts, the ids from the patterns where they are made', () => {
    const restated = linesMatching(
      control.filter((file) => file !== 'lambda/control/fields.ts'),
      /\b(fac|ct|co|key|iss)_\[|cursor must be|must be a whole number/,
    );
    expect(restated).toEqual([]);
  });

  test("each operation is an entry of its group's table: operation({request, defaults?, run})", () => {
    const groups = control.filter((file) => file.endsWith('-operations.ts'));
    expect(groups.length).toBeGreaterThanOrEqual(5);
    for (const file of groups) expect(source(file)).toMatch(/export const [A-Z_]+_OPERATIONS = \{/);
    expect(linesMatching(control, /switch \(request\.operation\)/)).toEqual([]);
  });
});

describe('the control-room web app (local/console/control-room)', () => {
  test('no page module is longer than 150 lines', () => {
    const long = pages.map((file) => [file, source(file).split('\n').length] as const).filter(([, lines]) => lines > 150);
    expect(long).toEqual([]);
  });

  test('pages render through renderPage and show values through display.ts: no sendHtml(page(…)), no text() of their own', () => {
    expect(linesMatching(pages, /sendHtml\(|\bpage\(\{|const text = /)).toEqual([]);
  });

  test('routes name their parameters: no positional match groups, no casts of them', () => {
    expect(linesMatching(app, /pattern: (new RegExp|\/)|\b[A-Za-z]+ as string\b/)).toEqual([]);
  });

  test('the factory-id pattern is defined once (lambda/kernel/factory-id.ts) and imported, in the scripts too', () => {
    const files = [...app, ...sourceFiles(ROOT, 'local'), 'local/console/control-room/assets/app.js', 'local/console/control-room/assets/recent.js'];
    expect(linesMatching([...new Set(files)], /fac_\[A-Za-z0-9_/)).toEqual([]);
  });

  test('the pager builds its links with withQuery, not a URLSearchParams of its own', () => {
    expect(linesMatching(pages, /new URLSearchParams/)).toEqual([]);
    expect(source('local/console/control-room/pager.ts')).toMatch(/withQuery\(/);
  });

  test("no page decodes a cursor: a bulk run's progress comes with its answer", () => {
    expect(linesMatching(app, /decodeCursor|contactCursor|domain\/cursor/)).toEqual([]);
  });
});
