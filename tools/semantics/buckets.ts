/**
 * The write ceiling of each partition key value: a token bucket per
 * partition (of the table, or of an index), refilled at the ceiling's rate.
 *
 * Why per partition key value and at 1,000 write units a second: one
 * partition serves at most 1,000 write units a second, on-demand tables too,
 * and adaptive capacity can give a hot item a partition of its own but not
 * more than that ("Burst and adaptive capacity", burst-adaptive-capacity.html;
 * "Designing partition keys to distribute your workload",
 * bp-partition-key-design.html). A hot partition key value is therefore
 * modelled as its own partition at that ceiling: the best case AWS can give it.
 *
 * Burst: AWS keeps up to 300 seconds of a table's unused provisioned capacity
 * for bursts, but a burst is still served by partitions, each under its
 * ceiling; so the bucket of one partition holds `burstSeconds` of its ceiling
 * (default 1 s: at most one second's worth at once, never more than the
 * ceiling sustained). The table-level 300 s burst is not modelled.
 *
 * Accounting ("debt"): a write is admitted while every bucket it will charge
 * is above zero; it takes its predicted cost at once (so that concurrent
 * writes see it), and once it has run its actual cost replaces the
 * prediction (the cost depends on the item before and after, known only then;
 * a refused or failed write gives its prediction back). A bucket can so go
 * below zero, and stays closed until refilled: over any window a partition is
 * charged at most its ceiling times the window, plus one burst, plus the
 * writes admitted while it was still open.
 *
 * Time comes from `clock` (milliseconds), so tests freeze or step it.
 */
export interface BucketConfig {
  /** Write units a second per partition key value. */
  ceiling: number;
  /** The bucket's depth, in seconds of the ceiling. */
  burstSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class Buckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private config: BucketConfig,
    private readonly clock: () => number,
  ) {}

  private capacity(): number {
    return this.config.ceiling * this.config.burstSeconds;
  }

  /** The bucket's tokens now (refilled up to its capacity). */
  level(id: string): number {
    const now = this.clock();
    const bucket = this.buckets.get(id);
    if (!bucket) return this.capacity();
    const refilled = Math.min(this.capacity(), bucket.tokens + (this.config.ceiling * Math.max(0, now - bucket.at)) / 1000);
    bucket.tokens = refilled;
    bucket.at = now;
    return refilled;
  }

  admits(id: string): boolean {
    return this.level(id) > 0;
  }

  /** Takes `units` from the bucket (a negative number gives them back, up to its capacity). */
  charge(id: string, units: number): void {
    const tokens = Math.min(this.capacity(), this.level(id) - units);
    this.buckets.set(id, { tokens, at: this.clock() });
  }

  /** New ceiling or depth: buckets restart full. */
  configure(config: BucketConfig): void {
    this.config = config;
    this.buckets.clear();
  }

  reset(): void {
    this.buckets.clear();
  }
}
