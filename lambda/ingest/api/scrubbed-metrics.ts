import type { ScrubCounts } from '../scrub/rule';
import { SCRUBBED_METRIC } from '../../infrastructure/observability/names';

/** The scrubber's replacements (docs/privacy.md#scrubbing) as the request's metrics (`ScrubbedCard: 2`…): only the rules that replaced something. */
export function scrubbedMetrics(counts: ScrubCounts): Record<string, number> {
  const metrics: Record<string, number> = {};
  for (const [rule, count] of Object.entries(counts) as [keyof ScrubCounts, number][]) if (count > 0) metrics[SCRUBBED_METRIC[rule]] = count;
  return metrics;
}

/** The same for the request's log line, as one short text: "card:1,email:2" (counts and rule names only, never a value). */
export const scrubbedLogField = (counts: ScrubCounts): string =>
  Object.entries(counts)
    .map(([rule, count]) => `${rule}:${count}`)
    .join(',');
