import { createTallyHandler } from './tally';
import { tallyFromEnv } from './tally-wiring';

/** The tally Lambda's entry point (the reports table's stream, lib/tally.ts), wired once per container. */
export const handler = createTallyHandler(tallyFromEnv());
