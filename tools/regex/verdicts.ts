import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check } from 'recheck';
import { BUILT_REGEXES } from './built-regexes';
import { regexKey, shippedRegexes } from './shipped-regexes';

/**
 * What recheck (a ReDoS checker: automata theory where it can, fuzzing
 * where a pattern has lookaround) said of each regular expression of the
 * shipped code, kept in tools/regex/verdicts.json: `npm run regexes` checks
 * them all again and writes it (about 40 s on two cores, too slow for every
 * test run); test/repo/linear-regexes.test.ts fails when a pattern has no
 * verdict, or one other than safe, and checks a sample again each run.
 */

export interface Verdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  /** How recheck decided: `automaton` (a proof over the pattern's automaton) or `fuzz`. */
  checker?: string;
  /** For a vulnerable one: `polynomial` or `exponential`, and its attack string's shape. */
  complexity?: string;
}

export interface Verdicts {
  recheck: string;
  verdicts: Record<string, Verdict>;
}

export const VERDICTS_FILE = join(__dirname, 'verdicts.json');

/** The recheck release installed. */
export const recheckVersion = (): string => (JSON.parse(readFileSync(require.resolve('recheck/package.json'), 'utf8')) as { version: string }).version;

/** Every pattern to check, by key, with where it comes from. */
export function patternsToCheck(root: string): Map<string, { source: string; flags: string; where: string }> {
  const found = shippedRegexes(root);
  const patterns = new Map<string, { source: string; flags: string; where: string }>();
  for (const literal of found.literals) patterns.set(regexKey(literal), { ...literal, where: `${literal.file}:${literal.line}` });
  for (const [file, build] of Object.entries(BUILT_REGEXES)) {
    for (const regex of build()) patterns.set(regexKey(regex), { source: regex.source, flags: regex.flags, where: `${file} (built)` });
  }
  return patterns;
}

/**
 * recheck's settings: no time limits on its fuzzing (it then stops on step
 * counts alone) and a fixed seed, so that a verdict is the same on a loaded machine
 * and a quiet one, today and at the next run: with its default time limits,
 * a busy machine made it report a safe pattern vulnerable once in a while.
 */
// Its fuzzing's time limits off (step counts alone), a fixed seed, and a minute for the whole check. The recall
// (replaying a found attack to confirm it) keeps its own limit: without one, it confirmed nothing.
const DETERMINISTIC = { timeout: 60_000, attackTimeout: null, incubationTimeout: null, seedingTimeout: null, randomSeed: 0 } as const;

/** recheck's verdict on one pattern. */
export async function verdictOf(source: string, flags: string, checker: 'auto' | 'automaton' = 'auto'): Promise<Verdict> {
  const diagnostics = await check(source, flags, { ...DETERMINISTIC, checker });
  if (diagnostics.status === 'vulnerable') {
    return { status: 'vulnerable', checker: diagnostics.checker, complexity: `${diagnostics.complexity.type}: ${diagnostics.attack.pattern}` };
  }
  if (diagnostics.status === 'unknown') return { status: 'unknown', complexity: diagnostics.error.kind };
  return { status: 'safe', checker: diagnostics.checker };
}

export const readVerdicts = (): Verdicts => JSON.parse(readFileSync(VERDICTS_FILE, 'utf8')) as Verdicts;

export function writeVerdicts(verdicts: Verdicts): void {
  const sorted = Object.fromEntries(Object.entries(verdicts.verdicts).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(VERDICTS_FILE, `${JSON.stringify({ recheck: verdicts.recheck, verdicts: sorted }, null, 2)}\n`);
}
