import type { Pattern } from './types.js';

/*
 * The ingest API files the same texts and scripts away (lambda/ingest/grouping/fingerprint.ts,
 * lambda/ingest/grouping/stack-frames.ts): test/rules/sdk-server-rules.test.ts holds the two equal.
 */

/** A cross-origin script's error as the browser reports it, with nothing to act on. */
const SCRIPT_ERROR = /^\s*(uncaught )?script error\.?\s*$/i;

/** Always ignored: cross-origin scripts' "Script error.", and ResizeObserver's harmless loop notice. */
export const ALWAYS_IGNORED: readonly Pattern[] = [SCRIPT_ERROR, /ResizeObserver loop/];

/** Scripts of browser extensions, by their URL's scheme. */
const EXTENSION = /^(chrome-extension|moz-extension|safari-extension|safari-web-extension|ms-browser-extension):/i;

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
