import { TALLY_DRAIN_VARIABLE } from './run-tally';

/**
 * Resolves once the run's tally has counted every event stored before the
 * call into its issue and feed pages (test/support/run-tally.ts): what a test
 * waits for before reading issues or event lists, instead of sleeping.
 */
export async function tallied(): Promise<void> {
  const url = process.env[TALLY_DRAIN_VARIABLE];
  if (!url) throw new Error(`${TALLY_DRAIN_VARIABLE} is not set: run the tests through jest (global-setup starts the run's tally)`);
  const answer = await fetch(url);
  if (answer.status !== 204) throw new Error(`the run's tally did not catch up: ${await answer.text()}`);
}
