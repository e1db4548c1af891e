import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The layout's rules (README, "Where things are"), checked on the imports
 * themselves: the domain is pure, the API reaches storage only through its
 * wiring module, operations are plain functions, and what ships never
 * imports the lab.
 */
const ROOT = join(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports (static, dynamic and type imports alike). */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1] as string);
}

/** Files under `dir` importing a specifier that matches `forbidden`, as "file → specifier". */
function offenders(dir: string, forbidden: RegExp, except: string[] = []): string[] {
  return files(dir)
    .filter((file) => !except.includes(file))
    .flatMap((file) => importsOf(file).filter((spec) => forbidden.test(spec)).map((spec) => `${relative('.', file)} → ${spec}`));
}

describe('layout', () => {
  test('lambda/domain imports nothing from the store, the API, the functions or any AWS SDK package', () => {
    expect(offenders('lambda/domain', /\/store\/|\/api\/|\/enrichment\/|^@aws-sdk\//)).toEqual([]);
  });

  test('lambda/ingest (the ingest API\'s rules) imports nothing from the store, the API, Middy or any AWS SDK package', () => {
    expect(offenders('lambda/ingest', /\/store\/|\/api\/|\/enrichment\/|^@aws-sdk\/|^@middy\//)).toEqual([]);
  });

  test('zod is imported as zod/mini only, and as a namespace (the bundles stay small)', () => {
    const full = ['lambda', 'lib', 'local'].flatMap((dir) => offenders(dir, /^zod(\/(?!mini$).*)?$/));
    expect(full).toEqual([]);
    const named = ['lambda', 'local'].flatMap((dir) =>
      files(dir).filter((file) => /import\s*\{[^}]*\}\s*from\s*['"]zod\/mini['"]/.test(readFileSync(join(ROOT, file), 'utf8'))),
    );
    expect(named).toEqual([]);
  });

  test('every API of the route table is served by its own Lambda entry point', () => {
    const entries = files('lambda/api').filter((file) => /handler\.ts$/.test(file)).sort();
    expect(entries).toEqual(['lambda/api/handler.ts', 'lambda/api/ingest-handler.ts']);
  });

  test("lambda/api reaches lambda/store only through each API's wiring module", () => {
    const wiring = ['lambda/api/contacts/dynamo-dependencies.ts', 'lambda/api/ingest/dynamo-dependencies.ts'];
    expect(offenders('lambda/api', /(\.\.\/)+store\//, wiring)).toEqual([]);
  });

  test('the pure rules of enrichment and of the control room import no AWS SDK and no store', () => {
    const rules = [
      'lambda/enrichment/plan-pass.ts',
      'lambda/enrichment/apply-pass.ts',
      'lambda/control/plan-clear.ts',
      'lambda/control/apply-clear.ts',
      'lambda/control/contact-filter.ts',
      'lambda/control/export-format.ts',
      'lambda/control/view.ts',
      'lambda/control/request.ts',
      'lambda/control/operations.ts',
    ];
    const pure = /^@aws-sdk\/|\/store\/|dynamo/;
    expect(rules.flatMap((file) => importsOf(file).filter((spec) => pure.test(spec)).map((spec) => `${file} → ${spec}`))).toEqual([]);
  });

  test('lambda/control reaches DynamoDB only through its store and its wiring', () => {
    expect(offenders('lambda/control', /^@aws-sdk\/|\.\.\/store\/dynamo-/, ['lambda/control/dynamo-control-store.ts', 'lambda/control/dependencies.ts', 'lambda/control/handler.ts'])).toEqual([]);
  });

  test('no operation wraps itself in a Middy chain', () => {
    expect(offenders('lambda/api/operations', /^@middy\/core$/)).toEqual([]);
  });

  test('the client (client/src) compiles in nothing of the service but lambda/domain, and the service imports neither client/ nor openapi/', () => {
    expect(offenders('client/src', /(^|\/)lambda\/(?!domain\/)|(^|\/)(test|tools|openapi|local|lib)\//)).toEqual([]);
    expect(['bin', 'lib', 'lambda', 'local'].flatMap((dir) => offenders(dir, /(^|\/)(client|openapi)\//))).toEqual([]);
  });

  test('what ships (bin, lib, lambda, local) imports nothing from tools/ or test/', () => {
    const lab = /(^|\/)(tools|test)\//;
    expect(['bin', 'lib', 'lambda', 'local'].flatMap((dir) => offenders(dir, lab))).toEqual([]);
  });
});
