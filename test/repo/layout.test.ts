import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles, specifiersOf } from '../support/source-imports';

/**
 * The layout's rules (docs/architecture.md#where-things-are-in-the-code), checked on the imports
 * themselves: the domain is pure, every DynamoDB adapter lives in
 * lambda/infrastructure/store and the rest reaches it only through its wiring modules,
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
    .flatMap((file) =>
      importsOf(file)
        .filter((spec) => forbidden.test(spec))
        .map((spec) => `${relative('.', file)} → ${spec}`),
    );
}

/**
 * The modules that wire DynamoDB adapters to what uses them: each builds
 * stores from a document client, and nothing else outside lambda/infrastructure/store
 * touches DynamoDB.
 */
const DYNAMO_WIRING = [
  'lambda/contacts/api/contacts-wiring.ts',
  'lambda/ingest/api/ingest-wiring.ts',
  'lambda/ingest/sourcemaps/api/sourcemaps-wiring.ts',
  'lambda/control/control-room-wiring.ts',
  'lambda/contacts/enrichment/sources/sources-wiring.ts',
  'lambda/alerts/alerts-wiring.ts',
];

describe('layout', () => {
  test('every Lambda entry point is named <function>-entry.ts, and every such file is one lib/ bundles', () => {
    const bundled = files('lib')
      .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/entry: '([^']+\.ts)'/g)].map((match) => `lambda/${match[1]}`))
      .sort();
    const named = files('lambda')
      .filter((file) => /-entry\.ts$/.test(file))
      .sort();
    expect(bundled.length).toBeGreaterThan(0);
    expect(named).toEqual([...new Set(bundled)]);
  });

  test('the shared kernel (lambda/kernel) imports nothing but itself and Node.js built-ins: every face may use it, it uses no face', () => {
    expect(offenders('lambda/kernel', /^(?!\.\/|node:)/)).toEqual([]);
  });

  test('the contacts rules (lambda/contacts/domain) import nothing from infrastructure, the API, enrichment or any AWS SDK package', () => {
    expect(offenders('lambda/contacts/domain', /\/infrastructure\/|\/api\/|\/enrichment\/|^@aws-sdk\//)).toEqual([]);
  });

  test("the ingest face's rules (its own protocol, grouping, issues, scrubbing, the Sentry protocol, source maps) import no store, no HTTP layer, no API, no Middy, no AWS SDK", () => {
    const rules = files('lambda/ingest').filter((file) => !/^lambda\/ingest\/(api|tally|sourcemaps\/api)\//.test(file));
    expect(rules.length).toBeGreaterThan(40);
    const forbidden = /\/infrastructure\/(store|http|memory)\/|\/api\/|\/contacts\/|^@aws-sdk\/|^@middy\//;
    expect(
      rules.flatMap((file) =>
        importsOf(file)
          .filter((spec) => forbidden.test(spec))
          .map((spec) => `${file} → ${spec}`),
      ),
    ).toEqual([]);
  });

  test('lambda/ingest/issues (the issue model every face shares) is pure: no store, no API, no function of its own, no AWS SDK, no Middy', () => {
    expect(offenders('lambda/ingest/issues', /\/infrastructure\/|\/api\/|\/control\/|\/tally\/|\/enrichment\/|^@aws-sdk\/|^@middy\//)).toEqual([]);
  });

  test("the tally's rules and its handler import no store and no AWS SDK: only its Lambda wiring does", () => {
    expect(offenders('lambda/ingest/tally', /\/store\/|^@aws-sdk\/|^@middy\//, ['lambda/ingest/tally/tally-wiring.ts'])).toEqual([]);
  });

  test('zod is imported as zod/mini only, and as a namespace (the bundles stay small)', () => {
    const full = ['lambda', 'lib', 'local'].flatMap((dir) => offenders(dir, /^zod(\/(?!mini$).*)?$/));
    expect(full).toEqual([]);
    const named = ['lambda', 'local'].flatMap((dir) =>
      files(dir).filter((file) => /import\s*\{[^}]*\}\s*from\s*['"]zod\/mini['"]/.test(readFileSync(join(ROOT, file), 'utf8'))),
    );
    expect(named).toEqual([]);
  });

  test("every API of the route table is served by its own Lambda entry point, in its face's api/ folder", () => {
    const entries = files('lambda')
      .filter((file) => /\/api\/[^/]+-entry\.ts$/.test(file))
      .sort();
    expect(entries).toEqual(['lambda/contacts/api/contacts-entry.ts', 'lambda/ingest/api/ingest-entry.ts', 'lambda/ingest/sourcemaps/api/sourcemaps-entry.ts']);
  });

  test('each API folder reaches lambda/infrastructure/store only through its wiring module', () => {
    const wiring = ['lambda/contacts/api/contacts-wiring.ts', 'lambda/ingest/api/ingest-wiring.ts', 'lambda/ingest/sourcemaps/api/sourcemaps-wiring.ts'];
    const apis = ['lambda/contacts/api', 'lambda/ingest/api', 'lambda/ingest/sourcemaps/api', 'lambda/infrastructure/http'];
    expect(apis.flatMap((dir) => offenders(dir, /\/store\//, wiring))).toEqual([]);
  });

  test('the pure rules of enrichment and of the control room import no AWS SDK and no store', () => {
    // Every module of the control room but its wiring and its Lambda entry point.
    const control = files('lambda/control').filter((file) => !['lambda/control/control-room-wiring.ts', 'lambda/control/control-room-entry.ts'].includes(file));
    const rules = ['lambda/contacts/enrichment/plan-pass.ts', 'lambda/contacts/enrichment/apply-pass.ts', 'lambda/contacts/enrichment/progress.ts', ...control];
    const pure = /^@aws-sdk\/|\/store\/|dynamo/;
    expect(
      rules.flatMap((file) =>
        importsOf(file)
          .filter((spec) => pure.test(spec))
          .map((spec) => `${file} → ${spec}`),
      ),
    ).toEqual([]);
  });

  test('the rules of alerts (triggers, payload, signature, retries, the outbound guard, fan-out and delivery) import no AWS SDK and no store; only the wiring and the two entry points reach lambda/infrastructure/store', () => {
    const wiring = ['lambda/alerts/alerts-wiring.ts', 'lambda/alerts/notifier-entry.ts', 'lambda/alerts/deliverer-entry.ts'];
    const adapters = ['lambda/alerts/sqs-delivery-queue.ts', 'lambda/alerts/sns-platform-topic.ts'];
    expect(offenders('lambda/alerts', /^@aws-sdk\/|(^|\/)store\//, [...wiring, ...adapters])).toEqual([]);
  });

  test('DynamoDB is reached only from lambda/infrastructure/store: no other module of lambda or lib imports a DynamoDB SDK package but the wiring', () => {
    const dynamoSdk = /^@aws-sdk\/(client|lib|util)-dynamodb$/;
    const except = [...files('lambda/infrastructure/store'), ...DYNAMO_WIRING];
    expect(['lambda', 'lib'].flatMap((dir) => offenders(dir, dynamoSdk, except))).toEqual([]);
  });

  test('the control room, enrichment and the memory adapters reach lambda/infrastructure/store only through their wiring and entry point, the key schema included (domain types live with the domain)', () => {
    const store = /(^|\/)store\//;
    const dirs = ['lambda/control', 'lambda/contacts/enrichment', 'lambda/infrastructure/memory', 'lambda/infrastructure/observability'];
    expect(dirs.flatMap((dir) => offenders(dir, store, [...DYNAMO_WIRING, 'lambda/control/control-room-entry.ts']))).toEqual([]);
  });

  test("each API's operations live in its own folder (lambda/contacts/api/, lambda/ingest/api/, lambda/ingest/sourcemaps/api/), as its routes and middlewares do", () => {
    const operations = files('lambda').filter((file) =>
      /import type \{[^}]*\bOperation\b[^}]*\} from '(\.\.\/)+(infrastructure\/http\/)?pipeline'/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(operations.length).toBeGreaterThan(3);
    expect(operations.filter((file) => !/^lambda\/(contacts\/api|ingest\/api|ingest\/sourcemaps\/api)\/[^/]+\.ts$/.test(file))).toEqual([]);
  });

  test("the request state, the middlewares and route steps both APIs use, and the metrics module, carry neither API's specifics", () => {
    // What only one API's requests learn is in its own slot, typed in its folder (contacts/contacts-slot.ts, ingest/ingest-slot.ts).
    const state = ['lambda/infrastructure/http/request-state.ts', 'lambda/infrastructure/http/types.ts'];
    const shared = [
      ...state,
      ...files('lambda/infrastructure/http/middleware'),
      ...files('lambda/infrastructure/http/steps'),
      'lambda/infrastructure/observability/metrics.ts',
    ];
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
    const routeParts = files('lambda').filter((file) =>
      /import type \{[^}]*\b(Operation|Check|BodyReader)\b[^}]*\} from '(\.\.\/)+(infrastructure\/http\/)?pipeline'/.test(
        readFileSync(join(ROOT, file), 'utf8'),
      ),
    );
    expect(routeParts.length).toBeGreaterThan(5);
    expect(
      routeParts.flatMap((file) =>
        importsOf(file)
          .filter((spec) => /^@middy\//.test(spec))
          .map((spec) => `${file} → ${spec}`),
      ),
    ).toEqual([]);
  });

  test('the client (client/src) compiles in nothing of the service but the shared kernel (lambda/kernel), and the service imports neither client/ nor openapi/', () => {
    expect(offenders('client/src', /(^|\/)lambda\/(?!kernel\/)|(^|\/)(test|tools|openapi|local|lib)\//)).toEqual([]);
    expect(['bin', 'lib', 'lambda', 'local'].flatMap((dir) => offenders(dir, /(^|\/)(client|openapi)\//))).toEqual([]);
  });

  test('what ships (bin, lib, lambda, local) imports nothing from tools/ or test/', () => {
    const lab = /(^|\/)(tools|test)\//;
    expect(['bin', 'lib', 'lambda', 'local'].flatMap((dir) => offenders(dir, lab))).toEqual([]);
  });
});
