import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { enginesUnderTest, launchEngine, type EngineName } from './engines';

/**
 * Captures the stack text each engine writes for the same errors, thrown by a script served under a hashed asset
 * name, and writes them as the table the grouping's frame names are held to
 * (test/lambda/ingest/grouping/engine-stacks.json, read by frame-names.test.ts). Run it again when an engine
 * changes: `node --import tsx tools/browsers/capture-stacks.ts [out.json]` (BROWSER_ENGINES limits the engines).
 *
 * Each case throws one error from a named construct (a constructor, a method called under another name, an
 * async function, nested anonymous functions, eval, global code, …); the same construct must give one name per
 * frame in every engine once normalized.
 */

const APP = `
function thrower(message) { throw new TypeError(message); }
function CartTotal(items) { if (!items) thrower('no items'); }
class Cart { constructor(items) { if (!items) thrower('no cart'); } total() { thrower('total'); } get size() { thrower('size'); } static of() { thrower('of'); } }
var shop = { sum: function CartTotal2() { thrower('aliased'); } };
var x = {}; x.CartTotal = function () { thrower('assigned'); };
function outer() { return [1].map(function () { return [2].map(() => thrower('nested')); }); }
async function loadCart() { await null; thrower('async'); }
async function checkout() { await loadCart(); }
function callFunction() { CartTotal(); }
function callConstructorFunction() { new CartTotal(); }
function callClassConstructor() { new Cart(); }
function callClassMethod() { new Cart([]).total(); }
function callGetter() { return new Cart([]).size; }
function callStaticMethod() { Cart.of(); }
function callUnderAnotherName() { shop.sum(); }
function callAssignedFunction() { x.CartTotal(); }
function callNested() { outer(); }
function callEval() { eval('thrower("eval")'); }
function callNewFunction() { new Function('thrower', 'thrower("fn")')(thrower); }
var cases = [
  ['function', callFunction], ['constructor function', callConstructorFunction], ['class constructor', callClassConstructor],
  ['class method', callClassMethod], ['getter', callGetter], ['static method', callStaticMethod],
  ['method under another name', callUnderAnotherName], ['assigned anonymous function', callAssignedFunction],
  ['nested anonymous functions', callNested], ['eval', callEval], ['new Function', callNewFunction],
];
async function captureAll() {
  var out = {};
  cases.forEach(function (entry) { try { entry[1](); } catch (e) { out[entry[0]] = e.stack; } });
  try { await checkout(); } catch (e) { out['async functions'] = e.stack; }
  return out;
}
`;

const GLOBAL = `try { thrower('global'); } catch (e) { window.globalStack = e.stack; }`;

async function main(): Promise<void> {
  const out = process.argv[2] ?? 'test/lambda/ingest/grouping/engine-stacks.json';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/assets/app-3f9a1c2b.js' || path === '/assets/boot.4e5d6c7a.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(path.includes('app') ? APP : GLOBAL);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(
      '<!doctype html><html><head><script src="/assets/app-3f9a1c2b.js"></script><script src="/assets/boot.4e5d6c7a.js"></script></head><body></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  const table: Record<string, Partial<Record<EngineName, string>>> = {};
  try {
    for (const name of enginesUnderTest()) {
      const engine = await launchEngine(name);
      try {
        const tab = await engine.newTab();
        await tab.goto(`${origin}/shop`);
        const stacks = await tab.evaluate<Record<string, string>>('captureAll()');
        stacks['global code'] = await tab.evaluate<string>('window.globalStack');
        for (const [kind, stack] of Object.entries(stacks)) {
          const row = (table[kind] ??= {});
          row[name] = stack.split(origin).join('https://shop.example.com');
        }
        await tab.close();
      } finally {
        await engine.close();
      }
    }
  } finally {
    server.close();
  }
  writeFileSync(out, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`wrote ${Object.keys(table).length} cases to ${out}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
