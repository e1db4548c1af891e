import type { Pattern } from './types.js';

/** Always ignored: cross-origin scripts' errors arrive as "Script error." with nothing to act on, and ResizeObserver's loop notice is harmless. */
export const ALWAYS_IGNORED: readonly Pattern[] = [/^(Uncaught )?Script error\.?$/, /ResizeObserver loop/];

/** Scripts of browser extensions (chrome-extension://, moz-extension://, safari-web-extension://…). */
const EXTENSION = /^[a-z-]*extension:\/\//i;

/** True when `text` contains one of the strings or matches one of the patterns. */
export const matches = (text: string, patterns: readonly Pattern[]): boolean =>
  patterns.some((pattern) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)));

/**
 * The URL of the script the error was thrown in: the top frame of the
 * stack, as Chromium (`    at f (https://h/app.js:1:2)`) and Firefox or
 * Safari (`f@https://h/app.js:1:2`) write it, without line and column.
 */
export function topFrameUrl(stack: string | undefined): string | undefined {
  const frame = /(?:^\s*at (?:.*?\()?|@)([a-z][\w+.-]*:\/\/[^\s)]+)/im.exec(stack ?? '');
  return frame?.[1]?.replace(/(:\d+){1,2}$/, '');
}

export const isExtensionUrl = (url: string): boolean => EXTENSION.test(url);
