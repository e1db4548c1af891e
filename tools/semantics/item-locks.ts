/**
 * One write at a time per item, inside the proxy: the proxy reads an item
 * before and after each write to cost it, and those reads must see that
 * write's before and after, not another's. Writes of the same item queue in
 * arrival order; a request with several items takes their locks in one
 * global order, so two requests never wait on each other.
 */
export class ItemLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(ids: string[]): Promise<() => void> {
    const releases: (() => void)[] = [];
    for (const id of [...new Set(ids)].sort()) {
      const previous = this.tails.get(id) ?? Promise.resolve();
      let release!: () => void;
      const done = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => done);
      this.tails.set(id, tail);
      await previous;
      releases.push(() => {
        release();
        // The last in the queue leaves no entry behind.
        if (this.tails.get(id) === tail) this.tails.delete(id);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const release of releases) release();
    };
  }
}
