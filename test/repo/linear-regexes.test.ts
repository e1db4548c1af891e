import { join } from 'node:path';
import { BUILT_REGEXES } from '../../tools/regex/built-regexes';
import { shippedRegexes } from '../../tools/regex/shipped-regexes';
import { patternsToCheck, readVerdicts, recheckVersion, verdictOf } from '../../tools/regex/verdicts';

/**
 * Every regular expression of the code that ships runs in time linear in
 * its input (docs/development.md#linear-time-text-rules): each has recheck's
 * verdict "safe" in tools/regex/verdicts.json (`npm run regexes` writes it,
 * ~40 s), and a sample is checked again by recheck in every run, so the file
 * cannot drift from what the checker says.
 */
const ROOT = join(__dirname, '..', '..');
const patterns = patternsToCheck(ROOT);
const recorded = readVerdicts();

describe('linear-time regular expressions', () => {
  test('the check sees the patterns of the shipped code, literals and built ones alike', () => {
    expect(patterns.size).toBeGreaterThan(150);
    const wheres = [...patterns.values()].map((pattern) => pattern.where);
    expect(wheres).toEqual(expect.arrayContaining([expect.stringMatching(/^lambda\/ingest\/scrub\//), 'lambda/ingest/scrub/email.ts (built)']));
  });

  test("every pattern has recheck's verdict, and it is safe (run npm run regexes after changing one)", () => {
    const problems = [...patterns].flatMap(([key, { where }]) => {
      const verdict = recorded.verdicts[key];
      if (!verdict) return [`${where}: ${key} has no verdict`];
      return verdict.status === 'safe' ? [] : [`${where}: ${key} is ${verdict.status} (${verdict.complexity ?? ''})`];
    });
    expect(problems).toEqual([]);
  });

  test('no verdict is kept for a pattern the code no longer has', () => {
    expect(Object.keys(recorded.verdicts).filter((key) => !patterns.has(key))).toEqual([]);
  });

  test('the verdicts are those of the recheck release installed', () => {
    expect(recorded.recheck).toBe(recheckVersion());
  });

  test('every place that builds a pattern at run time is listed with the patterns it builds', () => {
    const building = [...new Set(shippedRegexes(ROOT).constructed.map(({ file }) => file))].sort();
    expect(building).toEqual(Object.keys(BUILT_REGEXES).sort());
  });

  test('recheck says the same today of two patterns drawn afresh, and still finds a quadratic one', async () => {
    const keys = [...patterns.keys()];
    const drawn = [0, 1].map(() => keys[Math.floor(Math.random() * keys.length)] as string);
    for (const key of drawn) {
      const { source, flags } = patterns.get(key) as { source: string; flags: string };
      expect({ key, status: (await verdictOf(source, flags)).status }).toEqual({ key, status: 'safe' });
    }
    // What the fingerprint used to cut a query string with: quadratic on a long run of "?" (proven on its automaton, at once).
    expect(await verdictOf('[?#].*$', '', 'automaton')).toMatchObject({ status: 'vulnerable', complexity: expect.stringMatching(/^polynomial/) });
  }, 60_000);
});
