import { randomBytes } from 'node:crypto';
import type { VisitorSalts } from '../ingest/ports';

/** VisitorSalts in memory: one random salt per day, made when first asked for. */
export class MemoryVisitorSalts implements VisitorSalts {
  private readonly salts = new Map<string, Uint8Array>();

  async saltFor(day: string): Promise<Uint8Array> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = randomBytes(32);
      this.salts.set(day, salt);
    }
    return salt;
  }
}
