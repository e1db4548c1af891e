import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles, specifiersOf } from '../support/source-imports';

/**
 * The layout's rules (docs/architecture.md#where-things-are-in-the-code), checked on the imports
 * themselves: the domain is pure, every DynamoDB adapter lives in
 * lambda/store and the rest reaches it only through its wiring modules,
 * operations are plain functions, and what ships never imports the lab.
 */
const ROOT = join(__dirname, '..', '..');

const files = (dir: string): string[] => sourceFiles(ROOT, dir);

/** Every module specifier a file imports (static, dynamic and type imports alike). */
const importsOf = (file: string): string[] => specifiersOf(ROOT, file);

/** Files under `dir` importing a specifier that matches `forbidden`, as "file → specifier". */
function offenders(dir: string, forbidden: RegExp, except: string[] = []): string[] {
  return files(dir)
    .filter((file) => !except.includes(file))
    .flatMap((file) => importsOf(file).filter((spec) => forbidden.test(spec)).map((spec) => `${relative('.', file)} → ${spec}`));
}

/**
 * The modules that wire DynamoDB adapters to what uses them: each builds
 * stores from a document client, and nothing else outside lambda/store
 * touches DynamoDB.
 */
const DYNAMO_WIRING = [
  'lambda/api/contacts/contacts-wiring.ts',
  'lambda/api/ingest/ingest-wiring.ts',
  'lambda/api/sourcemaps/sourcemaps-wiring.ts',
  'lambda/control/control-room-wiring.ts',
  'lambda/enrichment/sources/sources-wiring.ts',
  'lambda/alerts/alerts-wiring.ts',
];

describe('layout', () => {
  test('every Lambda entry point is named <function>-entry.ts, and every such file is one lib/ bundles', () => {
    const bundled = files('lib')
      .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/entry: '([^']+\.ts)'/g)].map((match) => `lambda/${match[1]}`))
      .sort();
    const named = files('lambda').filter((file) => /-entry\.ts$/.test(file)).sort();
    expect(bundled.length).toBeGreaterThan(0);
    expect(named).toEqual([...new Set(bundled)]);
  });

  test('lambda/domain imports nothing from the store, the API, the functions or any AWS SDK package', () => {
    expect(offenders('lambda/domain', /\/store\/|\/api\/|\/enrichment\/|^@aws-sdk\//)).toEqual([]);
  });

  test('lambda/ingest (the ingest API\'s rules) imports nothing from the store, the API, Middy or any AWS SDK package', () => {
    expect(offenders('lambda/ingest', /\/store\/|\/api\/|\/enrichment\/|^@aws-sdk\/|^@middy\//)).toEqual([]);
  });

  test('lambda/issues (the issue model every side shares) is pure: no store, no API, no function of its own, no AWS SDK, no Middy', () => {
    expect(offenders('lambda/issues', /\/store\/|\/api\/|\/control\/|\/tally\/|\/enrichment\/|\/memory\/|^@aws-sdk\/|^@middy\//)).toEqual([]);
  });

  test('the source maps rules (lambda/sourcemaps: the port, the resolver, the map checks, the upload steps) import no store, no API, no AWS SDK, no Middy', () => {
    expect(offenders('lambda/sourcemaps', /\/store\/|\/api\/|^@aws-sdk\/|^@middy\//)).toEqual([]);
  });

  test('the tally\'s rules and its handler import no store and no AWS SDK: only its Lambda wiring does', () => {
    expect(offenders('lambda/tally', /\/store\/|^@aws-sdk\/|^@middy\//, ['lambda/tally/tally-wiring.ts'])).toEqual([]);
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
    const entries = files('lambda/api').filter((file) => /-entry\.ts$/.test(file)).sort();
    expect(entries).toEqual(['lambda/api/contacts-entry.ts', 'lambda/api/ingest-entry.ts', 'lambda/api/sourcemaps-entry.ts']);
  });

  test("lambda/api reaches lambda/store only through each API's wiring module", () => {
    const wiring = ['lambda/api/contacts/contacts-wiring.ts', 'lambda/api/ingest/ingest-wiring.ts', 'lambda/api/sourcemaps/sourcemaps-wiring.ts'];
    expect(offenders('lambda/api', /(\.\.\/)+store\//, wiring)).toEqual([]);
  });

  test('the pure rules of enrichment and of the control room import no AWS SDK and no store', () => {
    // Every module of the control room but its wiring and its Lambda entry point.
    const control = files('lambda/control').filter((file) => !['lambda/control/control-room-wiring.ts', 'lambda/control/control-room-entry.ts'].includes(file));
    const rules = ['lambda/enrichment/plan-pass.ts', 'lambda/enrichment/apply-pass.ts', 'lambda/enrichment/progress.ts', ...control];
    const pure = /^@aws-sdk\/|\/store\/|dynamo/;
    expect(rules.flatMap((file) => importsOf(file).filter((spec) => pure.test(spec)).map((spec) => `${file} → ${spec}`))).toEqual([]);
  });

  test('the rules of alerts (triggers, payload, signature, retries, the outbound guard, fan-out and delivery) import no AWS SDK and no store; only the wiring and the two entry points reach lambda/store', () => {
    const wiring = ['lambda/alerts/alerts-wiring.ts', 'lambda/alerts/notifier-entry.ts', 'lambda/alerts/deliverer-entry.ts'];
    const adapters = ['lambda/alerts/sqs-delivery-queue.ts', 'lambda/alerts/sns-platform-topic.ts'];
    expect(offenders('lambda/alerts', /^@aws-sdk\/|(^|\/)store\//, [...wiring, ...adapters])).toEqual([]);
  });

  test('DynamoDB is reached only from lambda/store: no other module of lambda or lib imports a DynamoDB SDK package but the wiring', () => {
    const dynamoSdk = /^@aws-sdk\/(client|lib|util)-dynamodb$/;
    const except = [...files('lambda/store'), ...DYNAMO_WIRING];
    expect(['lambda', 'lib'].flatMap((dir) => offenders(dir, dynamoSdk, except))).toEqual([]);
  });

  test('the control room, enrichment and the memory adapters reach lambda/store only through their wiring and entry point, the key schema included (domain types live with the domain)', () => {
    const store = /(^|\/)store\//;
    const dirs = ['lambda/control', 'lambda/enrichment', 'lambda/memory', 'lambda/observability'];
    expect(dirs.flatMap((dir) => offenders(dir, store, [...DYNAMO_WIRING, 'lambda/control/control-room-entry.ts']))).toEqual([]);
  });

  test("each API's operations live in its own folder (lambda/api/contacts/, lambda/api/ingest/, lambda/api/sourcemaps/), as its routes and middlewares do", () => {
    const operations = files('lambda/api').filter((file) =>
      /import type \{[^}]*\bOperation\b[^}]*\} from '\.\.\/pipeline'/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(operations.length).toBeGreaterThan(3);
    expect(operations.filter((file) => !/^lambda\/api\/(contacts|ingest|sourcemaps)\/[^/]+\.ts$/.test(file))).toEqual([]);
  });

  test("the request state, the middlewares and route steps both APIs use, and the metrics module, carry neither API's specifics", () => {
    // What only one API's requests learn is in its own slot, typed in its folder (contacts/contacts-slot.ts, ingest/ingest-slot.ts).
    const state = ['lambda/api/request-state.ts', 'lambda/api/types.ts'];
    const shared = [...state, ...files('lambda/api/middleware'), ...files('lambda/api/steps'), 'lambda/observability/metrics.ts'];
    // The metrics every request of any API carries; each API names its own (contacts created, events accepted…).
    const common = new Set(['requests', 'requestsTotal', 'rateLimited', 'storageUnavailable', 'serverErrors', 'dynamoLatency', 'dynamoCalls']);
    const specifics = shared.flatMap((file) => {
      const code = readFileSync(join(ROOT, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const folders = importsOf(file).filter((spec) => /\/(contacts|ingest)\//.test(spec));
      const metrics = [...code.matchAll(/METRIC\.(\w+)/g)].map((match) => `METRIC.${match[1]}`).filter((name) => !common.has(name.slice('METRIC.'.length)));
      const words = [...code.matchAll(/(['"`])((?:(?!\1).)*\b(?:contacts?|ingest|emails?|events?|reports?)\b(?:(?!\1).)*)\1/gi)].map((match) => match[2]);
      return [...folders, ...metrics, ...words].map((found) => `${file}: ${found}`);
    });
    expect(specifics).toEqual([]);
  });

  test('no operation and no route step wraps itself in a Middy chain', () => {
    // A route's operations and checks are typed by the pipeline (Operation, Check, BodyReader): plain functions.
    const routeParts = files('lambda/api').filter((file) =>
      /import type \{[^}]*\b(Operation|Check|BodyReader)\b[^}]*\} from '\.\.\/pipeline'/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(routeParts.length).toBeGreaterThan(5);
    expect(routeParts.flatMap((file) => importsOf(file).filter((spec) => /^@middy\//.test(spec)).map((spec) => `${file} → ${spec}`))).toEqual([]);
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
