import { isUtf8 } from 'node:buffer';
import { isObject } from '../payloads';
import { SentryProtocolError } from './protocol-error';

/** One item of an envelope: its header's type and its payload's bytes. */
export interface EnvelopeItem {
  type: string;
  payload: Buffer;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

const NEWLINE = 0x0a;

/** A JSON object from bytes, or a malformed-envelope error naming `what`: JSON is UTF-8, so other bytes are refused, not read as U+FFFD. */
export function jsonObjectOf(bytes: Buffer, what: string): Record<string, unknown> {
  if (!isUtf8(bytes)) throw new SentryProtocolError('malformed', `${what} is not valid UTF-8: send JSON text in UTF-8.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SentryProtocolError('malformed', `${what} is not valid JSON.`);
  }
  if (!isObject(parsed)) throw new SentryProtocolError('malformed', `${what} must be a JSON object.`);
  return parsed;
}

/** The bytes from `start` to the next newline (or the end), and where the next line begins. */
function lineAt(bytes: Buffer, start: number): { line: Buffer; next: number } {
  const end = bytes.indexOf(NEWLINE, start);
  return end === -1 ? { line: bytes.subarray(start), next: bytes.length } : { line: bytes.subarray(start, end), next: end + 1 };
}

/**
 * Reads a Sentry envelope (https://develop.sentry.dev/sdk/envelopes/): a
 * header line, then items, each a header line and a payload, the payload
 * either `length` bytes long (as its header says) or ending at the next
 * newline. Every item is framed before anything is used, so a truncated
 * envelope, a length that runs past the end or a bad item header refuses
 * the whole envelope; more than `maxItems` items is refused as soon as the
 * one too many is met (never framed to the end).
 */
export function parseEnvelope(bytes: Buffer, maxItems: number): Envelope {
  const first = lineAt(bytes, 0);
  if (first.line.length === 0) throw new SentryProtocolError('malformed', 'The envelope is empty: its first line must be its JSON header.');
  const header = jsonObjectOf(first.line, 'The envelope header (its first line)');
  const items: EnvelopeItem[] = [];
  let at = first.next;
  while (at < bytes.length) {
    const itemHeader = lineAt(bytes, at);
    // Blank lines between items (a trailing newline) carry nothing.
    if (itemHeader.line.toString('utf8').trim() === '') {
      at = itemHeader.next;
      continue;
    }
    const index = items.length + 1;
    if (index > maxItems) throw new SentryProtocolError('too-large', `The envelope has more than ${maxItems} items, the limit: send fewer per envelope.`);
    const fields = jsonObjectOf(itemHeader.line, `The header of item ${index}`);
    const { type, length } = fields;
    if (typeof type !== 'string' || type === '') throw new SentryProtocolError('malformed', `The header of item ${index} has no type.`);
    if (length !== undefined && length !== null) {
      if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
        throw new SentryProtocolError('malformed', `The header of item ${index} has a length that is not a whole number of bytes.`);
      }
      const remaining = bytes.length - itemHeader.next;
      if (length > remaining) {
        throw new SentryProtocolError(
          'malformed',
          `Item ${index} (${type.slice(0, 40)}) says it is ${length} bytes long, but only ${remaining} bytes follow: the envelope is truncated or its length wrong.`,
        );
      }
      const end = itemHeader.next + length;
      items.push({ type, payload: bytes.subarray(itemHeader.next, end) });
      at = bytes[end] === NEWLINE ? end + 1 : end;
    } else {
      const payload = lineAt(bytes, itemHeader.next);
      items.push({ type, payload: payload.line });
      at = payload.next;
    }
  }
  return { header, items };
}
