/**
 * At most `concurrency` handler calls at once, the rest waiting their turn
 * in arrival order: what Lambda's concurrency does for the function on AWS,
 * where each container serves one request at a time. Without it one process
 * started every request of a burst at once, and 400 calls queued for the
 * DynamoDB client's 50 sockets ran out of their connection timeout while
 * DynamoDB Local was merely slow (the burst of `npm run load -- --burst`).
 */
export interface InvocationLimits {
  /** Handler calls in flight at once. */
  concurrency: number;
  /** Calls waiting beyond that; one more is refused at once (Overloaded). */
  maxWaiting: number;
}

/** A call refused because `maxWaiting` calls already wait: the adapter's 503 with Retry-After. */
export class Overloaded extends Error {
  constructor(waiting: number) {
    super(`${waiting} requests are already waiting for the handler`);
    this.name = 'Overloaded';
  }
}

export class InvocationQueue {
  private running = 0;
  /** Waiting starts, oldest first from `head` (no O(n) shift per call). */
  private readonly waiting: (() => void)[] = [];
  private head = 0;

  constructor(private readonly limits: InvocationLimits) {
    if (!(limits.concurrency >= 1)) throw new Error(`concurrency must be at least 1, got ${limits.concurrency}`);
  }

  /** Calls waiting now. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Runs `call` once a slot is free; rejects with Overloaded when too many already wait. */
  run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return this.execute(call);
    }
    if (this.queued >= this.limits.maxWaiting) return Promise.reject(new Overloaded(this.queued));
    // The slot is handed over by release(), already counted: no newcomer can take it in between.
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.execute(call));
  }

  private async execute<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } finally {
      this.release();
    }
  }

  private release(): void {
    if (this.queued === 0) {
      this.running -= 1;
      return;
    }
    const wake = this.waiting[this.head] as () => void;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    wake();
  }
}
