import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runScript, runScriptInProcess, startsItsRunThroughRunMain } from '../support/commands';
import { brokenLink, documentationPages, relativeLinksOf, shownCommands } from '../support/markdown';

/**
 * The documentation's promises about the repository: every relative link
 * and anchor in README.md, docs/, client/README.md and bench/ resolves (by
 * GitHub's heading slugs), every file of the repository they name exists,
 * and every command they show exists: an npm script of package.json, and
 * for the project's own commands each subcommand and option in that
 * command's usage (its `--help`).
 * `npm run docs:check` runs this file alone.
 */
const pages = documentationPages(ROOT);
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** Where the app reads its `-c` options: the typed deploy options, and the stack name in the app itself. */
const deployOptions = ['lib/deploy-options.ts', 'bin/contacts.ts'].map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');

interface Shown {
  where: string;
  command: string;
}

/** Every command shown on the pages, cut at the shell's separators and comments. */
function commandsShown(): Shown[] {
  return pages.flatMap((page) =>
    shownCommands(readFileSync(join(ROOT, page), 'utf8')).flatMap(({ line, command }) =>
      [...command.matchAll(/\b(npm (?:run|start|test)\b|npx (?:jest|cdk deploy)\b)([^|;&>)#]*)/g)].map((match) => ({
        where: `${page}:${line}`,
        command: `${match[1]}${match[2]}`.replace(/\s+/g, ' ').trim(),
      })),
    ),
  );
}

/** A command line's words, quoted arguments as one placeholder, the brackets of optional parts dropped. */
const wordsOf = (command: string) =>
  command
    .replace(/"[^"]*"|'[^']*'/g, 'QUOTED')
    .replace(/\\\|/g, ' ')
    .split(' ')
    .map((word) => word.replace(/^\[+|\]+$/g, ''))
    .filter(Boolean);

/** `npm run [--silent] name [-- args…]`, `npm start [-- args…]`, `npm test`: the script and the arguments it is given. */
function scriptCall(command: string): { script: string; args: string[] } | undefined {
  const words = wordsOf(command);
  if (words[0] !== 'npm') return undefined;
  let rest = words.slice(1);
  let script: string | undefined;
  if (rest[0] === 'start' || rest[0] === 'test') script = rest.shift();
  else {
    rest = rest.slice(1).filter((word, index) => !(index === 0 && word === '--silent'));
    script = rest.shift();
  }
  const dashes = rest.indexOf('--');
  return script === undefined ? undefined : { script, args: dashes === -1 ? [] : rest.slice(dashes + 1) };
}

/** What of `args` the command's usage does not know: options (`--x`) and subcommand words. */
function unknownTo(usage: string, args: string[]): string[] {
  const known = (word: string) => new RegExp(`(^|[^\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`, 'm').test(usage);
  return args.flatMap((word, index) => {
    if (word === '--help' || word === '-h') return [];
    if (word.startsWith('--')) return known(word.split('=')[0] as string) ? [] : [word];
    const afterOption = (args[index - 1] ?? '').startsWith('-');
    return !afterOption && /^[a-z][a-z-]*[a-z]$/.test(word) && !known(word) ? [word] : [];
  });
}

/** The project's own commands: scripts that run one of its TypeScript files (they all answer --help with their usage). */
const ownCommand = (script: string) => /(--import tsx|--require tsx\/cjs) \S+\.ts$/.test(scripts[script] ?? '');

describe('documentation', () => {
  test('covers the README, docs/, the client README and bench/', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/runbook.md', 'client/README.md', 'bench/results.md']));
  });

  test('every relative link and anchor resolves', () => {
    const broken = pages.flatMap((page) =>
      relativeLinksOf(page, readFileSync(join(ROOT, page), 'utf8')).flatMap((link) => {
        const problem = brokenLink(ROOT, link);
        return problem ? [`${link.page}:${link.line} (${link.target}): ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  test('every silent curl shown still shows its errors (-sS): a tour step against a server that is not there says so', () => {
    const mute = pages.flatMap((page) =>
      shownCommands(readFileSync(join(ROOT, page), 'utf8')).flatMap(({ line, command }) =>
        [...command.matchAll(/\bcurl((?:\s+-[A-Za-z]+)+)/g)]
          .filter((match) => /s/.test((match[1] as string).replace(/\s+-/g, '')) && !/S/.test((match[1] as string).replace(/\s+-/g, '')))
          .map(() => `${page}:${line}: ${command.trim()}`),
      ),
    );
    expect(mute).toEqual([]);
  });

  test('every npm command shown names a script of package.json', () => {
    const missing = commandsShown().flatMap(({ where, command }) => {
      const call = scriptCall(command);
      return call && !(call.script in scripts) ? [`${where}: ${command} (no script "${call.script}")`] : [];
    });
    expect(missing).toEqual([]);
  });

  test("every subcommand and option shown for the project's own commands is in that command's usage", async () => {
    const calls = commandsShown().flatMap(({ where, command }) => {
      const call = scriptCall(command);
      // A command shown without arguments has nothing to check (and a build would run).
      return call && call.args.length > 0 && ownCommand(call.script) ? [{ where, command, ...call }] : [];
    });
    // Its usage: what --help prints, or, for a command that does not take --help, the usage it prints on misuse. A
    // command built on runMain runs in this process (its entry file, as package.json runs it: test/support/commands.ts;
    // its own test file runs it as a process too), any other as a process.
    const usages = new Map<string, string>();
    for (const script of new Set(calls.map((call) => call.script))) {
      const help = await (startsItsRunThroughRunMain(script) ? runScriptInProcess(script, ['--help']) : runScript(script, ['--help']));
      usages.set(script, help.status === 0 ? help.stdout : /usage:/i.test(help.stderr) ? help.stderr : '');
    }
    const unknown = calls.flatMap(({ where, command, script, args }) => {
      if (!usages.get(script)) return [`${where}: ${command} (npm run ${script} -- --help prints no usage)`];
      const words = unknownTo(usages.get(script) ?? '', args);
      return words.length > 0 ? [`${where}: ${command} (not in its usage: ${words.join(', ')})`] : [];
    });
    expect(unknown).toEqual([]);
  }, 240_000);

  // bench/ holds records of past runs, which may name files since moved: the living pages only.
  test('every file or folder of the repository the docs name in code (`lambda/infrastructure/http/pipeline.ts`, `test/browser/`) exists', () => {
    const missing = pages
      .filter((page) => !page.startsWith('bench/'))
      .flatMap((page) =>
        readFileSync(join(ROOT, page), 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            [...line.matchAll(/`((?:bin|lib|lambda|local|test|tools|docs|bench|openapi|client|browser-sdk)\/[\w./-]*)`/g)]
              .map((match) => match[1] as string)
              // What a build writes (browser-sdk/dist/, client/dist/) is named but never committed.
              .filter((path) => !/(^|\/)dist(\/|$)/.test(path))
              .filter((path) => !existsSync(join(ROOT, path)))
              .map((path) => `${page}:${index + 1}: ${path}`),
          ),
      );
    expect(missing).toEqual([]);
  });

  test('every folder given to npx jest exists, and every -c option given to cdk deploy is a deploy option', () => {
    const wrong = commandsShown().flatMap(({ where, command }) => {
      const words = wordsOf(command);
      if (words[1] === 'jest')
        return words
          .slice(2)
          .filter((word) => !word.startsWith('-') && !existsSync(join(ROOT, word)))
          .map((word) => `${where}: ${word}`);
      const options = [...command.matchAll(/-c (\w+)=/g)].map((match) => match[1] as string);
      return options.filter((name) => !new RegExp(`\\b${name}\\b`).test(deployOptions)).map((name) => `${where}: -c ${name}`);
    });
    expect(wrong).toEqual([]);
  });
});
