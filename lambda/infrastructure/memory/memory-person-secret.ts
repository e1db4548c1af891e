import { randomBytes } from 'node:crypto';
import type { PersonSecret } from '../../kernel/person-key';

/** The person secret in memory: one random value per instance, as the keys table holds one per deployment. */
export class MemoryPersonSecret implements PersonSecret {
  private readonly value = new Uint8Array(randomBytes(32));

  async secret(): Promise<Uint8Array> {
    return this.value;
  }
}
