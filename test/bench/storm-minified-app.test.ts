import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStormApp, throwIn } from '../../tools/storm/minified-app';

/** The source-mapped storm's app (tools/storm/minified-app.ts): one bug, two builds whose minified names differ. */

const SITE = 'https://shop.example.com';

test("both builds throw the bug under different minified names, each stack naming its script's injected debug id", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'storm-app-test-'));
  try {
    const { dist, builds } = await buildStormApp(dir, SITE);
    const errors = builds.map((build) => throwIn(dist, build, SITE));
    const names = errors.map((error) => [...error.stack.matchAll(/at (\w+) \(/g)].map((match) => match[1]).join(','));
    expect(names[0]).not.toBe(names[1]);
    builds.forEach((build, i) => expect(errors[i]?.debugIds).toEqual({ [build.url]: build.debugId }));
    expect(new Set(errors.map((error) => `${error.type}: ${error.value}`)).size).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
