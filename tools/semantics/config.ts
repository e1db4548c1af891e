/**
 * What the service-semantics proxy adds, and how much of it: the settings
 * the in-process API, the command's flags and environment and
 * `POST /__semantics/config` all take.
 */
export interface SemanticsConfig {
  /** Write units a second per partition key value (table or index): 1,000 on AWS; 100 a 1:10 model, 20 a 1:50 one. */
  ceiling: number;
  /** A partition's bucket depth, in seconds of its ceiling (buckets.ts). */
  burstSeconds: number;
  /** Whether writes over the ceiling are refused (their units are counted either way). */
  throttling: boolean;
  /** Whether transaction conflicts are raised. */
  conflicts: boolean;
  /** How long a transaction keeps its items after DynamoDB Local answered (its commit window), in ms. */
  holdMs: number;
}

export const DEFAULT_CONFIG: SemanticsConfig = {
  ceiling: 1000,
  burstSeconds: 1,
  throttling: true,
  conflicts: true,
  holdMs: 5,
};

/** A one-line reason the settings cannot be used, or undefined when they can. */
export function configProblem(config: SemanticsConfig): string | undefined {
  if (!Number.isFinite(config.ceiling) || config.ceiling <= 0) return `ceiling must be a positive number of write units a second, got ${config.ceiling}`;
  if (!Number.isFinite(config.burstSeconds) || config.burstSeconds <= 0) return `burst must be a positive number of seconds, got ${config.burstSeconds}`;
  if (!Number.isFinite(config.holdMs) || config.holdMs < 0) return `hold must be 0 or more milliseconds, got ${config.holdMs}`;
  if (typeof config.throttling !== 'boolean' || typeof config.conflicts !== 'boolean') return 'throttling and conflicts are true or false';
  return undefined;
}

/** The settings with `changes` applied; an Error naming the problem when they are not valid. */
export function withChanges(config: SemanticsConfig, changes: Partial<SemanticsConfig>): SemanticsConfig {
  const known = Object.keys(DEFAULT_CONFIG);
  const unknown = Object.keys(changes).filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown setting ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const next = { ...config, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) } as SemanticsConfig;
  const problem = configProblem(next);
  if (problem) throw new Error(problem);
  return next;
}
