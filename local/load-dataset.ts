import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseReferenceLine, type ReferenceRecord } from '../lambda/enrichment/sources/reference-dataset';

export interface LoadSummary {
  lines: number;
  /** People written (distinct emails). */
  loaded: number;
  /** Lines for an email an earlier line of the file had: the later line wins. */
  duplicates: number;
  invalid: number;
  /** The first problems, with their line numbers. */
  problems: { line: number; problem: string }[];
}

const BATCH = 25; // BatchWriteItem's maximum
const MAX_PROBLEMS_SHOWN = 20;

async function writeBatch(doc: DynamoDBDocumentClient, table: string, records: ReferenceRecord[]) {
  let pending: Record<string, unknown>[] = records.map((record) => ({ PutRequest: { Item: record } }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** attempt)));
    if (attempt > 10) throw new Error(`DynamoDB kept ${pending.length} items unprocessed; try again later`);
    const result = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
    pending = (result.UnprocessedItems?.[table] ?? []) as Record<string, unknown>[];
  }
}

/**
 * Loads a vendor file (JSON Lines keyed by email) into the reference table.
 * Later lines for the same email replace earlier ones; reloading a file is
 * harmless; people absent from a newer file are not removed. Invalid lines
 * are counted and listed, never fatal.
 */
export async function loadDataset(
  doc: DynamoDBDocumentClient,
  table: string,
  file: string,
  onProgress?: (summary: LoadSummary) => void,
): Promise<LoadSummary> {
  const summary: LoadSummary = { lines: 0, loaded: 0, duplicates: 0, invalid: 0, problems: [] };
  const seen = new Set<string>();
  let batch = new Map<string, ReferenceRecord>();
  const flush = async () => {
    if (batch.size === 0) return;
    const records = [...batch.values()];
    batch = new Map();
    await writeBatch(doc, table, records);
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
    else {
      seen.add(parsed.record.email);
      summary.loaded += 1;
    }
    // One batch may not hold the same key twice: flush first, so the later line wins.
    if (batch.has(parsed.record.email)) await flush();
    batch.set(parsed.record.email, parsed.record);
    if (batch.size === BATCH) await flush();
  }
  await flush();
  return summary;
}
