/**
 * Server-side HTML: every page of the control room is built with `html`,
 * whose interpolated values are escaped by `escapeHtml` unless they are
 * Html built the same way. Contact fields, event messages and stacks are
 * written by strangers: nothing reaches a page without passing here.
 */

/** Markup this module built (or escaped): safe to put into a page as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** The one escaping function: text made safe for element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => ENTITIES[char] as string);
}

export type Interpolated = Html | string | number | boolean | undefined | null | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A template of markup: literal parts as written, every `${value}` escaped (arrays joined, Html kept). */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

/** A path built from fixed parts and escaped-for-URL parts: `/f/${id}/contacts`. */
export function path(strings: TemplateStringsArray, ...parts: string[]): string {
  let text = strings[0] ?? '';
  parts.forEach((part, index) => {
    text += encodeURIComponent(part) + (strings[index + 1] ?? '');
  });
  return text;
}

/** A path with a query string of the defined values. */
export function withQuery(base: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? base : `${base}?${text}`;
}
