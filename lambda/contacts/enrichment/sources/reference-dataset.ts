import { ENRICHABLE_FIELDS, type EnrichableField } from '../../domain/contact';
import { normalizeEmail } from '../../../kernel/email';
import { cleanText } from '../../../kernel/free-text';
import type { FoundFields } from './source';

/** Longest value kept per field (the API's own clipping where it has one). */
const FIELD_LIMITS: Record<EnrichableField, number> = { name: 200, title: 200, phone: 64, location: 200 };

/** One person of the vendor's reference dataset, as stored (keyed by the email's stored form). */
export interface ReferenceRecord extends FoundFields {
  email: string;
}

export type LineResult = { ok: true; record: ReferenceRecord } | { ok: false; problem: string } | { ok: 'blank' };

/**
 * Reads one line of the vendor file (JSON Lines, one object per person, keyed
 * by `email`; `name`, `title`, `phone`, `location` are kept, other keys
 * ignored). Values follow the API's free-text rule (free-text.ts): a line with
 * a value that is not well-formed Unicode is refused, controls are stripped,
 * line breaks become spaces, values are trimmed and clipped.
 */
export function parseReferenceLine(rawLine: string): LineResult {
  const line = rawLine.charCodeAt(0) === 0xfeff ? rawLine.slice(1) : rawLine; // a byte order mark
  if (line.trim() === '') return { ok: 'blank' };
  if (line.includes('\ufffd')) return { ok: false, problem: 'not valid UTF-8' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'not a JSON object' };
  }
  const raw = value as Record<string, unknown>;
  if (typeof raw.email !== 'string') return { ok: false, problem: 'no "email" string' };
  const email = normalizeEmail(raw.email);
  if (!email.ok) return { ok: false, problem: email.problem };
  const record: ReferenceRecord = { email: email.email };
  for (const field of ENRICHABLE_FIELDS) {
    const fieldValue = raw[field];
    if (typeof fieldValue !== 'string') continue;
    const text = cleanText(fieldValue, { field, lines: 'single-line', max: FIELD_LIMITS[field] });
    if (!text.ok) return { ok: false, problem: text.problem };
    if (text.text !== '') record[field] = text.text;
  }
  return { ok: true, record };
}
