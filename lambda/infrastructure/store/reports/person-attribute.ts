import type { PersonKeys } from '../../../kernel/person-key';
import { PERSON_ATTRIBUTE } from '../schema';

interface Reported {
  factoryId: string;
  reporter?: { email?: string };
}

/**
 * The reports as written: each that names a reporter's email with its
 * person key (`person`, the byPerson index's partition: docs/privacy.md), the
 * others as they are. The secret is read once per container, so this costs
 * no round trip after the first report.
 */
export async function withPersonKeys<T extends Reported>(reports: readonly T[], keys: PersonKeys | undefined): Promise<T[]> {
  if (!keys) return [...reports];
  return Promise.all(
    reports.map(async (report) => {
      const email = report.reporter?.email;
      return email ? { ...report, [PERSON_ATTRIBUTE]: await keys.keyOf(report.factoryId, email) } : report;
    }),
  );
}
