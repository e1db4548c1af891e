import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/commands';

const SRC = join(ROOT, 'browser-sdk', 'src');
const importsOf = (text: string) => [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((match) => match[1] as string);

test("the browser SDK's sources import only each other: no dependency, nothing of the service, nothing of Node", () => {
  const outside = readdirSync(SRC)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      importsOf(readFileSync(join(SRC, file), 'utf8'))
        .filter((spec) => !/^\.\/[a-z-]+\.js$/.test(spec))
        .map((spec) => `${file} → ${spec}`),
    );
  expect(outside).toEqual([]);
});

test("the browser SDK's package.json declares no runtime dependency", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'browser-sdk', 'package.json'), 'utf8')) as Record<string, unknown>;
  expect([manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies]).toEqual([undefined, undefined, undefined]);
});
