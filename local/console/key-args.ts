import type { KeyType } from '../../lambda/kernel/api-key';
import { CANARY_KEY_REFUSED, isCanaryFactory } from '../../lambda/kernel/canary';
import { normalizeOriginList } from '../../lambda/kernel/origins';
import { RATE_LIMIT_RANGE } from '../../lib/deploy-options';
import { positiveIntArg, UsageError } from '../harness/cli';

/** A key to issue, as the command line describes it (`keys create`, `control keys create`). */
export interface KeyArgs {
  type: KeyType;
  /** Normalized; only for a publishable key. */
  origins?: string[];
  /** Unset: the default (the stack's for a secret key). */
  rateLimit?: number;
  /** A publishable key that servers (requests without an Origin) may use too. */
  servers?: boolean;
}

/**
 * Checks `--type`, `--origin` and `--rate-limit` before anything is
 * connected: a publishable key needs 1 to 50 website origins
 * (lambda/kernel/origins.ts), a secret key takes none. No key is issued
 * for the canary factory (lambda/kernel/canary.ts).
 */
export function keyArgs(values: { factory?: string; type?: string; origin?: string[]; 'rate-limit'?: string; servers?: boolean }): KeyArgs {
  if (values.factory !== undefined && isCanaryFactory(values.factory)) throw new UsageError(CANARY_KEY_REFUSED);
  const type = values.type ?? 'secret';
  if (type !== 'secret' && type !== 'publishable') throw new UsageError(`--type must be secret or publishable, got "${type}"`);
  const given = values.origin ?? [];
  if (type === 'secret' && given.length > 0) throw new UsageError('--origin is only for --type publishable');
  if (type === 'publishable' && given.length === 0) throw new UsageError('a publishable key needs at least one --origin (the website it is used on)');
  const rateLimit = positiveIntArg('--rate-limit', values['rate-limit'], RATE_LIMIT_RANGE.max);
  if (type === 'secret' && values.servers) throw new UsageError('--servers is only for --type publishable (a secret key is for servers already)');
  if (type === 'secret') return { type, rateLimit };
  const checked = normalizeOriginList(given);
  if (!checked.ok) throw new UsageError(`--origin: ${checked.problem}`);
  return { type, origins: checked.origins, rateLimit, ...(values.servers ? { servers: true } : {}) };
}
