import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseReferenceLine, type ReferenceRecord } from '../../lambda/contacts/enrichment/sources/reference-dataset';
import { RECORDS_PER_WRITE, type ReferenceWriter } from '../../lambda/infrastructure/store/reference/reference-writer';

export interface LoadSummary {
  lines: number;
  /** People written (distinct emails). */
  loaded: number;
  /** Lines for an email an earlier line of the file had: the later line wins. */
  duplicates: number;
  /** People left out because they were erased (distinct emails): their suppression stays (docs/privacy.md#the-vendors-record). */
  suppressed: number;
  invalid: number;
  /** The first problems, with their line numbers. */
  problems: { line: number; problem: string }[];
}

const MAX_PROBLEMS_SHOWN = 20;

/**
 * Loads a vendor file (JSON Lines keyed by email) into the reference table,
 * through the writer every writer of the table uses, which leaves out the
 * people erased. Later lines for the same email replace earlier ones;
 * reloading a file is harmless; people absent from a newer file are not
 * removed. Invalid lines are counted and listed, never fatal.
 */
export async function loadDataset(writer: Pick<ReferenceWriter, 'write'>, file: string, onProgress?: (summary: LoadSummary) => void): Promise<LoadSummary> {
  const summary: LoadSummary = { lines: 0, loaded: 0, duplicates: 0, suppressed: 0, invalid: 0, problems: [] };
  const seen = new Set<string>();
  const suppressed = new Set<string>();
  let batch = new Map<string, ReferenceRecord>();
  const flush = async () => {
    if (batch.size === 0) return;
    const records = [...batch.values()];
    batch = new Map();
    for (const email of (await writer.write(records)).suppressed) suppressed.add(email);
    // Counted by person: a suppressed email on two lines is one person left out.
    summary.suppressed = suppressed.size;
    // Every email seen so far was in this write or an earlier one.
    summary.loaded = seen.size - suppressed.size;
    onProgress?.(summary);
  };
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    summary.lines += 1;
    const parsed = parseReferenceLine(line);
    if (parsed.ok === 'blank') continue;
    if (parsed.ok === false) {
      summary.invalid += 1;
      if (summary.problems.length < MAX_PROBLEMS_SHOWN) summary.problems.push({ line: summary.lines, problem: parsed.problem });
      continue;
    }
    if (seen.has(parsed.record.email)) summary.duplicates += 1;
    else seen.add(parsed.record.email);
    // One transaction may not hold the same key twice: flush first, so the later line wins.
    if (batch.has(parsed.record.email)) await flush();
    batch.set(parsed.record.email, parsed.record);
    if (batch.size === RECORDS_PER_WRITE) await flush();
  }
  await flush();
  return summary;
}
