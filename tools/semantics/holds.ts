/**
 * Items held by writes in flight, for the conflicts DynamoDB raises and
 * DynamoDB Local does not ("Transaction conflict handling in DynamoDB",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling):
 * - a PutItem, UpdateItem or DeleteItem of an item that an ongoing
 *   TransactWriteItems holds fails with TransactionConflictException;
 * - a TransactWriteItems with an item another ongoing TransactWriteItems holds
 *   is cancelled (TransactionCanceledException, reason TransactionConflict);
 * - a TransactGetItems with an item an ongoing TransactWriteItems, BatchWriteItem,
 *   PutItem, UpdateItem or DeleteItem writes is cancelled the same way.
 * And, as AWS's announcement of transactions put it, an item changed outside
 * the transaction while it runs cancels the transaction: a TransactWriteItems
 * with an item that a plain write has in flight is cancelled too.
 *
 * A transaction holds its items from the moment the proxy receives it until
 * DynamoDB Local has answered plus the configured hold (its prepare/commit
 * window); a plain write, while it is in flight. Items are named by itemId().
 */
export type HolderKind = 'transaction' | 'write';

export class Holds {
  private readonly held = new Map<string, { transaction: number; write: number }>();

  private count(id: string, kind: HolderKind): number {
    return this.held.get(id)?.[kind] ?? 0;
  }

  /** For a TransactWriteItems or TransactGetItems: which of its items are held by another write. */
  conflictsOfTransaction(ids: string[]): boolean[] {
    return ids.map((id) => this.count(id, 'transaction') > 0 || this.count(id, 'write') > 0);
  }

  /** For a plain write: whether a transaction holds the item. */
  conflictsOfWrite(id: string): boolean {
    return this.count(id, 'transaction') > 0;
  }

  /** Holds the items until the returned function is called (once). */
  hold(ids: string[], kind: HolderKind): () => void {
    const unique = [...new Set(ids)];
    for (const id of unique) {
      const entry = this.held.get(id) ?? { transaction: 0, write: 0 };
      entry[kind]++;
      this.held.set(id, entry);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of unique) {
        const entry = this.held.get(id);
        if (!entry) continue;
        entry[kind]--;
        if (entry.transaction === 0 && entry.write === 0) this.held.delete(id);
      }
    };
  }

  /** How many items are held now (tests wait for 0). */
  size(): number {
    return this.held.size;
  }
}
