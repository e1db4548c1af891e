/**
 * The free-text rule of everything the ingest API stores from a browser
 * (messages, stack traces, titles, tags…): the project's one shared rule
 * (lambda/domain/free-text.ts: a lone surrogate is refused naming the field,
 * invisible controls and bidi overrides are removed, single-line fields turn
 * line breaks into spaces, the text is trimmed and clipped, never refused for
 * length). Every ingest field goes through `cleanText`, and only through it.
 */
export { cleanText, type TextCheck, type TextLines, type TextRule } from '../domain/free-text';
