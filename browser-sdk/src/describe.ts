import type { IngestEvent } from './types.js';

/** The fields of an event that say what went wrong. */
export type Problem = Pick<IngestEvent, 'message' | 'exception'>;

/** The API's limits on these fields (docs/browser-sdk.md): longer text would be clipped by the server anyway. */
const LIMITS = { message: 8192, type: 200, value: 2048, stack: 16_384 };

/** `text` cut to `max` UTF-16 units, never leaving half a surrogate pair (the API refuses lone surrogates). */
export const clip = (text: string, max: number): string => (text.length > max ? text.slice(0, max).replace(/[\ud800-\udbff]$/, '') : text);

/** A value that is not an Error, as text: strings as they are, the rest as JSON where possible. */
export function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined && json !== '{}') return json;
  } catch {
    // a cycle, a BigInt: fall through
  }
  return String(value);
}

/** Error-like: an Error of this window or another (an iframe's), or what a library throws in its place. */
function errorLike(value: unknown): value is { name: unknown; message: unknown; stack?: unknown } {
  return (
    value instanceof Error || (typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string' && 'name' in value)
  );
}

/**
 * An error as the event's message and exception. The stack goes as the
 * browser wrote it: the server keeps the text and reads the frames itself.
 */
export function describeError(value: unknown, prefix = ''): Problem {
  if (!errorLike(value)) {
    const text = clip(stringify(value), LIMITS.value);
    return { message: clip(prefix + text, LIMITS.message), exception: { type: prefix ? 'UnhandledRejection' : 'Error', value: text } };
  }
  const type = clip(String(value.name || 'Error'), LIMITS.type);
  const text = String(value.message);
  const stack = typeof value.stack === 'string' && value.stack !== '' ? clip(value.stack, LIMITS.stack) : undefined;
  return {
    message: clip(`${prefix}${type}: ${text}`, LIMITS.message),
    exception: { type, value: clip(text, LIMITS.value), ...(stack === undefined ? {} : { stack }) },
  };
}

/** A message event's text. */
export const describeMessage = (message: unknown): Problem => ({ message: clip(stringify(message), LIMITS.message) });

/** A version 4 UUID from crypto.getRandomValues, which (unlike randomUUID) pages served over plain http have too. */
export function uuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
