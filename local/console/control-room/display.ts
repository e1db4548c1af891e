import { html, type Html, type Interpolated } from './html';

/**
 * How every page shows a value an operation answered: the same value looks
 * the same on every page. Escaping is html's; these only choose the text.
 */

/** A value as text: a string as it is, a number or a boolean as written, nothing for a missing one, anything else as JSON. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The first line of a text, cut for a table cell. */
export function summary(value: unknown, max = 120): string {
  const line = text(value).split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** A time as the page shows it: the operator's time zone once assets/app.js ran, the UTC value on hover. */
export function time(iso: unknown): Html {
  if (typeof iso !== 'string' || iso === '') return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}" title="${iso} (UTC)">${iso}</time>`;
}

/**
 * A link to a page of this app, its path made of `parts` (each URL-encoded),
 * or the label alone when a part is missing or not a string: never a link
 * to `/undefined`.
 */
export function appLink(parts: readonly unknown[], label: Interpolated): Html {
  if (!parts.every((part): part is string => typeof part === 'string' && part !== '')) return html`${label}`;
  return html`<a href="${`/${parts.map(encodeURIComponent).join('/')}`}">${label}</a>`;
}

/** An operation's error, in its own words, with the status it answered. */
export function errorBox(status: number, error: unknown): Html {
  return html`<div class="error" role="alert"><strong>${status === 404 ? 'Not found' : `Error ${status}`}:</strong> ${text(error)}</div>`;
}
