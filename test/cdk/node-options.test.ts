import { spawnSync } from 'node:child_process';
import { FUNCTION_NODE_OPTIONS, runnableNodeOptions } from '../../lib/node-options';

describe("the functions' Node options (lib/node-options.ts)", () => {
  const NODE_20_FLAGS = new Set(['--max-semi-space-size', '--enable-source-maps']);

  test('a node that takes every flag gets NODE_OPTIONS as it is, the rest of the environment untouched', () => {
    const env = { PATH: '/bin', NODE_OPTIONS: '--experimental-async-context-frame --max-semi-space-size=64' };
    expect(runnableNodeOptions(env, new Set(['--experimental-async-context-frame', '--max-semi-space-size']))).toEqual(env);
  });

  test('a flag the node does not know is dropped, the others kept with their values', () => {
    const env = { PATH: '/bin', NODE_OPTIONS: ' --experimental-async-context-frame  --max-semi-space-size=64 ' };
    expect(runnableNodeOptions(env, NODE_20_FLAGS)).toEqual({ PATH: '/bin', NODE_OPTIONS: '--max-semi-space-size=64' });
  });

  test('NODE_OPTIONS is left out when none of its flags is known, and an environment without it stays as it is', () => {
    expect(runnableNodeOptions({ PATH: '/bin', NODE_OPTIONS: FUNCTION_NODE_OPTIONS.join(' ') }, NODE_20_FLAGS)).toEqual({ PATH: '/bin' });
    expect(runnableNodeOptions({ PATH: '/bin' }, NODE_20_FLAGS)).toEqual({ PATH: '/bin' });
  });

  test("the node running the tests starts with the functions' options cut to what it takes (by default, its own flags)", () => {
    const run = spawnSync(process.execPath, ['-e', 'process.stdout.write("started")'], {
      env: runnableNodeOptions({ PATH: process.env.PATH, NODE_OPTIONS: FUNCTION_NODE_OPTIONS.join(' ') }),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('started');
  });
});
