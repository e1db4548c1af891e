import { intervalUs, toleranceUs, type RatePolicy } from './rate-limit';

/**
 * A container's own view of one client's GCRA limit (./rate-limit.ts), so
 * that it writes the client's shared limiter item only when the client nears
 * its limit (docs/capacity.md#the-visitors-limit-counted-in-the-container).
 * The view is two TATs: the shared item's as this container last saw it, and
 * that one moved on by the requests the container admitted since without
 * writing. While the view's TAT after a request stays within the tolerance
 * of now, the container admits it on its own; the next write adds what the
 * view holds beyond the shared TAT (`unchargedUs`), so the item ends where
 * one-by-one writes would have left it. For one container the decisions are
 * exactly the rule's; a client spread over N containers is admitted at most
 * N times the rule's promise (each container's view misses the others').
 */
export interface RateView {
  /** The shared item's TAT as last seen (undefined: never seen). */
  sharedTatUs?: number;
  /** The shared TAT moved on by this container's admissions since (undefined: none). */
  viewTatUs?: number;
}

/** The view's TAT after one more request admitted without a write, or undefined when that request must be written (it would take the view past the tolerance). */
export function admitInView(view: RateView, nowUs: number, policy: RatePolicy): number | undefined {
  const base = Math.max(view.viewTatUs ?? 0, view.sharedTatUs ?? 0, nowUs);
  const next = base + intervalUs(policy);
  return next - nowUs <= toleranceUs(policy) ? next : undefined;
}

/**
 * What the view holds beyond the shared TAT, as of now: the interval the next
 * write must add besides its own request's. What lies before now has drained
 * on both sides and is owed no more.
 */
export function unchargedUs(view: RateView, nowUs: number): number {
  return Math.max(0, Math.max(view.viewTatUs ?? 0, nowUs) - Math.max(view.sharedTatUs ?? 0, nowUs));
}
