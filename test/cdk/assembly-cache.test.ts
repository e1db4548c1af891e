import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keptAssembly, sourcesKey } from '../../local/harness/bundle/assembly-cache';

/** A project of a few files in a folder of its own, and a cache folder beside it. */
let root: string;
let cacheDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'contacts-synth-sources-'));
  cacheDir = mkdtempSync(join(tmpdir(), 'contacts-synth-cache-'));
  for (const [path, text] of Object.entries({
    'bin/app.ts': 'app',
    'lib/stack.ts': 'stack',
    'lambda/infrastructure/http/entry.ts': 'entry',
    'cdk.json': '{}',
    'package.json': '{}',
    'package-lock.json': '{}',
    'tsconfig.json': '{}',
    'test/a.test.ts': 'a test',
    'docs/page.md': 'a page',
  }))
    write(path, text);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A stand-in for `cdk synth` that writes an assembly saying which of its runs made it. */
function countingSynth() {
  const runs: string[] = [];
  const synth = (outdir: string) => {
    runs.push(outdir);
    writeFileSync(join(outdir, 'manifest.json'), JSON.stringify({ run: runs.length }));
  };
  return { runs, synth };
}

const ENV = { CDK_DEFAULT_REGION: 'eu-west-1' };

describe('the sources key', () => {
  test.each([
    ['a byte of a file in lambda/', () => write('lambda/infrastructure/http/entry.ts', 'entry!')],
    ['a new file in lib/', () => write('lib/more.ts', '')],
    [
      'a file of bin/ renamed',
      () => {
        rmSync(join(root, 'bin/app.ts'));
        write('bin/app2.ts', 'app');
      },
    ],
    ['cdk.json', () => write('cdk.json', '{"context":{}}')],
    ['the lockfile', () => write('package-lock.json', '{"v":2}')],
    ['tsconfig.json removed', () => rmSync(join(root, 'tsconfig.json'))],
  ])('changes with %s', (_, change) => {
    const before = sourcesKey(root, ENV);
    change();
    expect(sourcesKey(root, ENV)).not.toBe(before);
  });

  test('changes with CDK_DEFAULT_REGION, which bin/contacts.ts reads into the stack', () => {
    expect(sourcesKey(root, { CDK_DEFAULT_REGION: 'us-east-1' })).not.toBe(sourcesKey(root, ENV));
    expect(sourcesKey(root, {})).not.toBe(sourcesKey(root, ENV));
  });

  test('changes with the Node.js version the synth runs on', () => {
    expect(sourcesKey(root, ENV, 'v22.23.3')).not.toBe(sourcesKey(root, ENV, 'v20.20.2'));
  });

  test("names the Node.js of the first node on PATH, which runs the synth, not the caller's", () => {
    const bin = mkdtempSync(join(tmpdir(), 'contacts-synth-node-'));
    try {
      writeFileSync(join(bin, 'node'), '#!/bin/sh\necho v99.1.2\n');
      chmodSync(join(bin, 'node'), 0o755);
      expect(sourcesKey(root, { ...ENV, PATH: bin })).toBe(sourcesKey(root, { ...ENV, PATH: bin }, 'v99.1.2'));
      expect(sourcesKey(root, { ...ENV, PATH: bin })).not.toBe(sourcesKey(root, { ...ENV, PATH: bin }, process.version));
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  test('stays the same for a change in test/ or docs/, which no synth reads', () => {
    const before = sourcesKey(root, ENV);
    write('test/a.test.ts', 'another test');
    write('docs/page.md', 'another page');
    expect(sourcesKey(root, ENV)).toBe(before);
  });
});

describe('keptAssembly', () => {
  test('the same sources twice: one synth, and the second call answers its assembly as reused', () => {
    const { runs, synth } = countingSynth();
    const first = keptAssembly({ root, cacheDir, env: ENV, synth });
    const second = keptAssembly({ root, cacheDir, env: ENV, synth });
    expect(runs).toHaveLength(1);
    expect([first.reused, second.reused]).toEqual([false, true]);
    expect(second.dir).toBe(first.dir);
    expect(JSON.parse(readFileSync(join(second.dir, 'manifest.json'), 'utf8'))).toEqual({ run: 1 });
  });

  test('a changed source synthesizes again, into a folder of its own', () => {
    const { runs, synth } = countingSynth();
    const first = keptAssembly({ root, cacheDir, env: ENV, synth });
    write('lambda/infrastructure/http/entry.ts', 'entry, changed');
    const second = keptAssembly({ root, cacheDir, env: ENV, synth });
    expect(runs).toHaveLength(2);
    expect(second.reused).toBe(false);
    expect(second.dir).not.toBe(first.dir);
    expect(JSON.parse(readFileSync(join(second.dir, 'manifest.json'), 'utf8'))).toEqual({ run: 2 });
  });

  test('a synth that fails keeps nothing, not even its scratch folder, and the next call synthesizes', () => {
    const failing = () => {
      throw new Error('cdk synth failed (exit 1)');
    };
    expect(() => keptAssembly({ root, cacheDir, env: ENV, synth: failing })).toThrow('cdk synth failed (exit 1)');
    expect(readdirSync(cacheDir)).toEqual([]);
    const { runs, synth } = countingSynth();
    expect(keptAssembly({ root, cacheDir, env: ENV, synth }).reused).toBe(false);
    expect(runs).toHaveLength(1);
  });

  test('sources changed while the synth ran: an error that says so, and nothing kept under either key', () => {
    const editing = (outdir: string) => {
      writeFileSync(join(outdir, 'manifest.json'), '{}');
      write('lib/stack.ts', 'edited meanwhile');
    };
    expect(() => keptAssembly({ root, cacheDir, env: ENV, synth: editing })).toThrow(/the sources changed while cdk synth ran/);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  test('another process keeping the same sources first: its assembly is answered, with no error', () => {
    const key = sourcesKey(root, ENV);
    const racing = (outdir: string) => {
      writeFileSync(join(outdir, 'manifest.json'), '{"ours":true}');
      // The other process renames its complete assembly into place while ours runs.
      mkdirSync(join(cacheDir, key));
      writeFileSync(join(cacheDir, key, 'manifest.json'), '{"theirs":true}');
      writeFileSync(join(cacheDir, key, 'template.json'), '{}');
    };
    const kept = keptAssembly({ root, cacheDir, env: ENV, synth: racing });
    expect(JSON.parse(readFileSync(join(kept.dir, 'manifest.json'), 'utf8'))).toEqual({ theirs: true });
    expect(readdirSync(cacheDir)).toEqual([key]);
  });

  test('keeps the three newest assemblies and removes older ones', () => {
    const { synth } = countingSynth();
    const dirs = [1, 2, 3, 4].map((n) => {
      write('lambda/infrastructure/http/entry.ts', `entry ${n}`);
      const { dir } = keptAssembly({ root, cacheDir, env: ENV, synth });
      // Made n seconds apart, so which are newest does not hang on the file system's clock resolution.
      const made = new Date(Date.now() - (10 - n) * 1000);
      utimesSync(dir, made, made);
      return dir;
    });
    expect(dirs.map((dir) => existsSync(dir))).toEqual([false, true, true, true]);
  });
});
