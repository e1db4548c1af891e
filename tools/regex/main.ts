import { runWithoutOptions } from '../../local/harness/cli';
import { patternsToCheck, recheckVersion, verdictOf, writeVerdicts, type Verdict } from './verdicts';

/**
 * npm run regexes: every regular expression of lambda/ checked by recheck
 * again, its verdicts written to tools/regex/verdicts.json (commit it). Exits 1,
 * naming each, when one is not safe: rewrite it so that it runs in linear
 * time (docs/development.md#linear-time-text-rules).
 */
async function main(): Promise<void> {
  const root = process.cwd();
  const patterns = patternsToCheck(root);
  const verdicts: Record<string, Verdict> = {};
  const unsafe: string[] = [];
  const started = Date.now();
  for (const [key, pattern] of patterns) {
    const verdict = await verdictOf(pattern.source, pattern.flags);
    verdicts[key] = verdict;
    if (verdict.status !== 'safe') unsafe.push(`${pattern.where}: ${key} is ${verdict.status}${verdict.complexity ? ` (${verdict.complexity})` : ''}`);
  }
  writeVerdicts({ recheck: recheckVersion(), verdicts });
  process.stdout.write(`checked ${patterns.size} patterns in ${((Date.now() - started) / 1000).toFixed(1)} s; wrote tools/regex/verdicts.json\n`);
  if (unsafe.length > 0) {
    process.stderr.write(`${unsafe.length} not proven linear:\n${unsafe.map((line) => `  ${line}`).join('\n')}\n`);
    process.exit(1);
  }
  // The checker's agent process would keep Node alive.
  process.exit(0);
}

const USAGE = `usage: npm run regexes

Checks every regular expression of lambda/ with recheck, writes the verdicts to tools/regex/verdicts.json
(commit it) and exits 1 naming each one not proven linear. Takes no options.`;

runWithoutOptions(USAGE, main);
