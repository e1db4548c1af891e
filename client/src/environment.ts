import { ContactsConfigError } from './errors.js';

/**
 * True in a web page or a browser worker. Server runtimes with `fetch`
 * (Node, Deno, Bun, edge workers) have no `document`, and no `importScripts`
 * beside `navigator`.
 */
export function inBrowser(global: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): boolean {
  if (typeof global.document === 'object' && global.document !== null) return true;
  return typeof global.importScripts === 'function' && typeof global.navigator === 'object';
}

/** Refuses what would leak a secret key or can never work, with what to do instead. */
export function checkSetup(apiKey: unknown, global?: Record<string, unknown>): string {
  if (inBrowser(global)) {
    throw new ContactsConfigError(
      'ContactsClient runs on servers only: a secret key in a browser is readable by anyone who opens the page. Call the contacts API from your backend (the browser-side bug-reporting API takes publishable dfpk_ keys).',
    );
  }
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new ContactsConfigError('apiKey is required: a secret key (dfsk_…) issued for your factory.');
  }
  if (apiKey.startsWith('dfpk_')) {
    throw new ContactsConfigError(
      'apiKey is a publishable key (dfpk_…), which belongs to the browser-side bug-reporting API: the contacts API takes a secret key (dfsk_…), used on servers only.',
    );
  }
  if (!apiKey.startsWith('dfsk_')) {
    throw new ContactsConfigError('apiKey must be a secret key (dfsk_…) issued for your factory, copied whole.');
  }
  return apiKey;
}
