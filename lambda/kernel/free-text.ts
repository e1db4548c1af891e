import { charCount, clip } from './clip';

/**
 * The one rule for caller-supplied free text on every path that stores it:
 * the contacts API, the enrichment dataset loader and the ingest API.
 *
 * 1. Text that is not well-formed Unicode (a lone surrogate, e.g. a JSON
 *    "\ud800" escape) cannot be stored faithfully: refused, naming the field.
 * 2. Invisible controls are removed: C0 controls other than TAB, LF and CR,
 *    DEL, C1 controls (U+0080–U+009F), and the bidi embedding, override and
 *    isolate controls (U+202A–U+202E, U+2066–U+2069), which can reorder what a
 *    reader sees. Marks such as U+200E/U+200F and joiners such as U+200D stay.
 * 3. A single-line field (a name, a title) turns each run of TAB, CR, LF,
 *    U+2028 and U+2029 into one space; a multi-line field (a message, a stack
 *    trace) keeps them as sent.
 * 4. A caller's `scrub` (the ingest API's: lambda/ingest/scrub/) replaces
 *    secrets in the cleaned text, before it is clipped: a secret cut in half
 *    by the clip would no longer look like one to a rule.
 * 5. The result is trimmed, then clipped to `max` code points (and a space
 *    the cut leaves at the end dropped).
 *
 * An empty result means the field was blank; whether that counts as omitted
 * is the caller's rule.
 */
export type TextLines = 'single-line' | 'multi-line';

export interface TextRule {
  /** The field's name, for the message of a refusal. */
  field: string;
  lines: TextLines;
  /** At most this many code points are kept. */
  max: number;
  /** Applied to the cleaned text before it is trimmed and clipped (step 4). */
  scrub?: (text: string) => string;
}

export type TextCheck = { ok: true; text: string } | { ok: false; problem: string };

const LONE_SURROGATE = /\p{Cs}/u;
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\r\n\u2028\u2029]+/g;

const codePoint = (char: string) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Applies the free-text rule above to one value. */
export function cleanText(value: string, rule: TextRule): TextCheck {
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    return {
      ok: false,
      problem: `${rule.field} is not well-formed Unicode: it has a lone surrogate (${codePoint(lone[0])}) at character ${charCount(value.slice(0, lone.index)) + 1}; send valid UTF-8 text`,
    };
  }
  let text = value.replace(CONTROLS, '');
  if (rule.lines === 'single-line') text = text.replace(LINE_BREAKS, ' ');
  if (rule.scrub) text = rule.scrub(text);
  // Trimmed again after clipping, so a cut never leaves a space at the end.
  return { ok: true, text: clip(text.trim(), rule.max).trimEnd() };
}
