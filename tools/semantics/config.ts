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

/**
 * The settings the environment gives, for the command and for a test run on
 * the proxy (SEMANTICS=on): SEMANTICS_CEILING (a number, or `off`),
 * SEMANTICS_BURST, SEMANTICS_HOLD_MS, SEMANTICS_CONFLICTS (`on` or `off`).
 * An Error names a value that is not one.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Partial<SemanticsConfig> {
  const settings: Partial<SemanticsConfig> = {};
  const number = (name: string, check: (value: number) => boolean, expected: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || !check(value)) throw new Error(`${name} must be ${expected}, got "${raw}"`);
    return value;
  };
  if (/^off$/i.test(env.SEMANTICS_CEILING ?? '')) settings.throttling = false;
  else settings.ceiling = number('SEMANTICS_CEILING', (value) => value > 0, 'a positive number of write units a second, or off');
  settings.burstSeconds = number('SEMANTICS_BURST', (value) => value > 0, 'a positive number of seconds');
  settings.holdMs = number('SEMANTICS_HOLD_MS', (value) => value >= 0, 'a number of milliseconds, 0 or more');
  const conflicts = env.SEMANTICS_CONFLICTS;
  if (conflicts !== undefined && conflicts !== '') {
    if (/^(on|true|1)$/i.test(conflicts)) settings.conflicts = true;
    else if (/^(off|false|0)$/i.test(conflicts)) settings.conflicts = false;
    else throw new Error(`SEMANTICS_CONFLICTS must be on or off, got "${conflicts}"`);
  }
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<SemanticsConfig>;
}
