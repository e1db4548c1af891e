import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FACTORY_ID_PATTERN } from '../../lambda/kernel/factory-id';
import { runMain, SetupError } from './setup-error';

/** Prints one JSON document on stdout: the machine-readable result of a command. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A usage problem: the message, then the command's usage text. */
export class UsageError extends SetupError {}

/** Checks a factory id given on the command line. */
export function factoryIdArg(value: string | undefined): string {
  if (!value) throw new UsageError('--factory <fac_id> is required');
  if (!FACTORY_ID_PATTERN.test(value)) {
    throw new UsageError(`--factory must look like fac_<letters, digits, _ or ->, got "${value}"`);
  }
  return value;
}

/** A positive whole number given on the command line. */
export function positiveIntArg(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, got "${value}"`);
  }
  return number;
}

/** Options every operator command takes: where the store is (help is handled by runCommand). */
export const COMMON_OPTIONS = {
  stack: { type: 'string' },
  region: { type: 'string' },
} as const;

/** The number of single-character edits between two words (Levenshtein), for "did you mean". */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length] as number;
}

/** The option `name` was most likely meant as: one a typo or two away, or one it begins; undefined when none is close. */
export function closestOption(name: string, known: readonly string[]): string | undefined {
  const ranked = known
    .map((candidate) => ({ candidate, distance: candidate.startsWith(name) && name.length >= 2 ? 0 : editDistance(name, candidate) }))
    .filter(({ candidate, distance }) => distance <= Math.min(2, Math.floor(candidate.length / 3)))
    .sort((a, b) => a.distance - b.distance);
  return ranked[0]?.candidate;
}

/**
 * The options npm kept for itself: `npm run keys create --factory fac_x`
 * (without `--`) hands `--factory` to npm as its own setting (it shows as
 * npm_config_factory in the environment) and only `fac_x` to the command.
 */
function optionsNpmTook(args: readonly string[], names: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return names.filter(
    (name) => env[`npm_config_${name.replace(/-/g, '_')}`] !== undefined && !args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`)),
  );
}

/**
 * Parses a command line. A parsing problem is a UsageError in the
 * command's words: an unknown option (with the one it was likely meant as),
 * a value missing or given to a flag that takes none, an option given twice
 * that takes one value, options npm took for itself (no `--` after the
 * script's name), or --region without --stack.
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, env: NodeJS.ProcessEnv = process.env) {
  const names = Object.keys(options);
  const tookOver = optionsNpmTook(args, names, env);
  if (tookOver.length > 0) {
    const script = env.npm_lifecycle_event ?? '<script>';
    throw new UsageError(
      `npm kept ${tookOver.map((name) => `--${name}`).join(', ')} for itself: after npm run ${script}, options reach the command only past "--", as in npm run ${script} -- … --${tookOver[0]} …`,
    );
  }
  const loose = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of loose.tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option === undefined) {
      const meant = closestOption(token.name, names);
      throw new UsageError(`unknown option ${token.rawName}${meant ? `: did you mean --${meant}?` : ''} (the options are in the usage below)`);
    }
    if (option.type === 'string' && token.value === undefined) throw new UsageError(`${token.rawName} needs a value: ${token.rawName} <value>`);
    if (option.type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value (it is a switch), got "${token.value}"`);
  }
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice: give it once`);
    seen.add(token.name);
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.region !== undefined && values.stack === undefined && values.url === undefined) {
    throw new UsageError('--region goes with --stack <name> (locally there is no region)');
  }
  return parsed;
}

/**
 * Runs a script that takes no options (a benchmark, a generator) as runCommand runs a command: `--help` prints
 * its usage instead of doing its work (which may rewrite a committed file), and any argument is refused with it.
 */
export function runWithoutOptions(usage: string, main: () => Promise<void> | void): void {
  runCommand(usage, async (argv) => {
    const { positionals } = parseCommandLine(argv, {});
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}": this script takes no options`);
    await main();
  });
}

/**
 * Runs a command: `--help`, `-h` or `help` prints the usage; a UsageError
 * prints the message and the usage and exits with 2; other failures go
 * through runMain (one line, exit 1).
 */
export function runCommand(usage: string, main: (argv: string[]) => Promise<void>): void {
  runMain(async () => {
    const argv = process.argv.slice(2);
    if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
      process.stdout.write(`${usage}\n`);
      return;
    }
    try {
      await main(argv);
    } catch (error) {
      if (error instanceof UsageError) {
        process.stderr.write(`error: ${error.message}\n\n${usage}\n`);
        process.exit(2);
      }
      throw error;
    }
  });
}
