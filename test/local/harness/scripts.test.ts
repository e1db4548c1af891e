import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../local/harness/paths';
import { scriptCommand } from '../../../local/harness/scripts';

const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** The scripts that run a file of the project with node (`node … <file>.ts`), by name. */
const fileScripts = Object.keys(scripts).filter((name) => /^node .*\.ts\b/.test(scripts[name] as string));

describe('scriptCommand', () => {
  test('reads a command script as node options and the absolute path of its file', () => {
    expect(scriptCommand('keys')).toEqual({ nodeOptions: ['--require', 'tsx/cjs'], entry: join(PROJECT_ROOT, 'local/console/commands/keys.ts') });
    expect(scriptCommand('bench:source-maps')).toEqual({
      nodeOptions: ['--expose-gc', '--import', 'tsx'],
      entry: join(PROJECT_ROOT, 'tools/bench/source-maps.ts'),
    });
  });

  test('every script that runs a file of the project names one that exists', () => {
    expect(fileScripts.length).toBeGreaterThan(20);
    expect(fileScripts.filter((name) => !existsSync(scriptCommand(name).entry))).toEqual([]);
  });

  test("the commands a person or a test starts run on tsx's CommonJS hooks, the builds and tools on its ES module hooks", () => {
    const commands = ['start', 'keys', 'enrich', 'reports', 'control', 'control-room', 'alerts', 'sourcemaps', 'status'];
    expect(commands.filter((name) => scriptCommand(name).nodeOptions.join(' ') !== '--require tsx/cjs')).toEqual([]);
    // The builds are ES modules (browser-sdk/ and client/ are "type": "module"), which only tsx's ES module hooks load.
    expect(scriptCommand('sdk:build').nodeOptions).toEqual(['--import', 'tsx']);
    expect(scriptCommand('client:build').nodeOptions).toEqual(['--import', 'tsx']);
  });

  test('every script but the test runners and the builds starts its run through runMain: --help prints its usage and does none of its work', () => {
    // The test runners hand their arguments to jest; the builds take none; sdk:size, an ES module of the SDK's
    // folder, answers --help itself.
    const own = new Set(['test', 'test:node22', 'sdk:build', 'client:build', 'sdk:size']);
    const throughRunMain = /\brun(Command|Main|WithoutOptions)\(/;
    const others = fileScripts.filter((name) => !own.has(name) && !throughRunMain.test(readFileSync(scriptCommand(name).entry, 'utf8')));
    expect(others).toEqual([]);
  });

  test('a script that runs no file of the project is refused by name', () => {
    expect(() => scriptCommand('lint')).toThrow('package.json runs no TypeScript file of the project for "lint"');
    expect(() => scriptCommand('no-such-script')).toThrow('"no-such-script"');
  });
});
