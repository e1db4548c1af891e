import { parseSync } from '@swc/core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles, specifiersOf } from '../support/source-imports';

/**
 * A module's test is found from its path (docs/development.md#where-a-test-lives): every pure module of
 * lambda/ and browser-sdk/src has its own test at test/<its path>.test.ts (or .property.test.ts), and every
 * test under test/lambda and test/browser-sdk/src names a module that exists. What touches the outside world
 * (the DynamoDB and S3 adapters, the in-memory twins, the entries and wiring, the AWS clients) is tested
 * through the surface that uses it (test/store, test/api, …), not here.
 */
const ROOT = join(__dirname, '..', '..');

/** Folders whose modules are adapters or composition, tested through the ports and surfaces they serve. */
const NOT_PURE = [/^lambda\/infrastructure\/(store|memory|aws-sdk)\//, /-(entry|wiring)\.ts$/];

/** An import that means I/O or a framework: a module that makes one is not a pure rule. */
const OUTSIDE = /^@aws-sdk\/|^@smithy\/|^@middy\/|^node:(http|https|net|dns|fs|child_process|dgram|tls)$|^(http|https|net|dns|fs)$/;

const CODE_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassDeclaration', 'ClassExpression']);

/** Whether a module defines behaviour (a function or a class): one of only types and constant values has nothing to test but the compiler's check. */
function definesBehaviour(file: string): boolean {
  let found = false;
  const visit = (node: unknown): void => {
    if (found || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (CODE_NODES.has((node as { type?: string }).type ?? '')) found = true;
    else for (const value of Object.values(node)) visit(value);
  };
  visit(parseSync(readFileSync(join(ROOT, file), 'utf8'), { syntax: 'typescript', target: 'es2022' }).body);
  return found;
}

const pureModules = (): string[] =>
  ['lambda', 'browser-sdk/src']
    .flatMap((dir) => sourceFiles(ROOT, dir))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .filter((file) => !NOT_PURE.some((pattern) => pattern.test(file)))
    .filter((file) => !specifiersOf(ROOT, file).some((spec) => OUTSIDE.test(spec)))
    .filter(definesBehaviour);

const testsOf = (module: string) => ['.test.ts', '.property.test.ts'].map((suffix) => `test/${module.replace(/\.ts$/, suffix)}`);

describe('tests found by path', () => {
  const modules = pureModules();

  test("the rule sees the pure modules (the kernel, the faces' rules, the HTTP steps and middlewares, the SDK)", () => {
    expect(modules.length).toBeGreaterThan(100);
    expect(modules).toEqual(expect.arrayContaining(['lambda/kernel/email.ts', 'lambda/ingest/grouping/fingerprint.ts', 'browser-sdk/src/batch.ts']));
    expect(modules).not.toContain('lambda/infrastructure/store/expression.ts');
  });

  test('every pure module has its own test at test/<its path>.test.ts', () => {
    const missing = modules.filter((module) => !testsOf(module).some((test) => existsSync(join(ROOT, test))));
    expect(missing).toEqual([]);
  });

  test('every mirrored test names a module that exists', () => {
    const tests = ['test/lambda', 'test/browser-sdk/src'].flatMap((dir) => sourceFiles(ROOT, dir)).filter((file) => file.endsWith('.test.ts'));
    const orphans = tests.filter((file) => !existsSync(join(ROOT, file.replace(/^test\//, '').replace(/(\.property)?\.test\.ts$/, '.ts'))));
    expect(orphans).toEqual([]);
  });
});
