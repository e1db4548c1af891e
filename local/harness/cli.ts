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

/**
 * Parses a command line. A parsing problem (unknown option, missing value),
 * an option given twice that takes one value, or --region without --stack
 * is a UsageError.
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
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
