import type { Reading } from '../../kernel/reading';
import { cleanText } from '../../kernel/free-text';
import type { IngestEvent, SdkFrame } from '../issues/stored-event';
import { readEvent } from '../payloads';
import type { ScrubCounts } from '../scrub/rule';
import { scrubText } from '../scrub/scrubber';
import { mapSentryEvent, type RawFrame } from './event-map';

/** Characters kept of a frame's texts: a function or module name, a file or URL, a line of source. */
const FRAME_TEXT = { function: 256, module: 256, file: 1024, contextLine: 512 } as const;

/** Distinct texts one event's frames remember: more (an event of 50 frames each with its own lines) are cleaned each time. */
const REMEMBERED_TEXTS = 512;

interface CleanedText {
  text: string | undefined;
  /** What the scrubber replaced in it, replayed each time the same text comes again. */
  counts: ScrubCounts;
}

/**
 * One event's frame texts cleaned (one line), scrubbed and clipped, each
 * distinct text once: a script's URL comes in frame after frame, and the
 * twelve scrubbing rules run over it once. Exact: cleaning and scrubbing are
 * pure, so a text met again gets the same result, and what the scrubber
 * replaced in it is counted again, as if it had run (the stored `scrubbed`
 * and the metrics see no difference).
 */
class FrameTexts {
  readonly counts: ScrubCounts = {};
  private readonly cleaned = new Map<number, Map<string, CleanedText>>();
  private remembered = 0;

  /** A frame's text, dropped when it cannot be kept (a lone surrogate) or is blank. */
  text(value: string | undefined, max: number): string | undefined {
    if (value === undefined) return undefined;
    let byText = this.cleaned.get(max);
    if (byText === undefined) {
      byText = new Map();
      this.cleaned.set(max, byText);
    }
    let entry = byText.get(value);
    if (entry === undefined) {
      const counts: ScrubCounts = {};
      const checked = cleanText(value, { field: 'a frame', lines: 'single-line', max, scrub: (text) => scrubText(text, counts) });
      entry = { text: checked.ok && checked.text !== '' ? checked.text : undefined, counts };
      if (this.remembered < REMEMBERED_TEXTS) {
        byText.set(value, entry);
        this.remembered += 1;
      }
    }
    for (const rule in entry.counts) {
      const name = rule as keyof ScrubCounts;
      this.counts[name] = (this.counts[name] ?? 0) + (entry.counts[name] ?? 0);
    }
    return entry.text;
  }

  /** A source line, its indentation (spaces and tabs, which cleaning trims) kept: the page shows code as written. */
  sourceLine(line: string | undefined): string | undefined {
    if (line === undefined) return undefined;
    const text = this.text(line, FRAME_TEXT.contextLine);
    return text === undefined ? undefined : `${/^[ \t]{0,40}/.exec(line)?.[0] ?? ''}${text}`;
  }

  /** Source lines around a frame's line, each as its line is (an unkeepable one kept empty, so lines stay in place). */
  sourceLines(lines: string[] | undefined): string[] | undefined {
    return lines?.map((line) => this.sourceLine(line) ?? '');
  }

  /** The replacements made, or undefined when none (as Scrubber.replaced). */
  get replaced(): ScrubCounts | undefined {
    return Object.keys(this.counts).length === 0 ? undefined : { ...this.counts };
  }
}

/**
 * A frame cleaned, with only the fields it has (in the stored order): no
 * `undefined` field set and deleted, which leaves V8 a slow object.
 */
function cleanFrame(raw: RawFrame, texts: FrameTexts): SdkFrame {
  const frame: SdkFrame = {};
  const fn = texts.text(raw.function, FRAME_TEXT.function);
  if (fn !== undefined) frame.function = fn;
  const module = texts.text(raw.module, FRAME_TEXT.module);
  if (module !== undefined) frame.module = module;
  const file = texts.text(raw.file, FRAME_TEXT.file);
  if (file !== undefined) frame.file = file;
  if (raw.line !== undefined) frame.line = raw.line;
  if (raw.column !== undefined) frame.column = raw.column;
  const contextLine = texts.sourceLine(raw.contextLine);
  if (contextLine !== undefined) frame.contextLine = contextLine;
  const pre = texts.sourceLines(raw.pre);
  if (pre !== undefined) frame.pre = pre;
  const post = texts.sourceLines(raw.post);
  if (post !== undefined) frame.post = post;
  if (raw.inApp !== undefined) frame.inApp = raw.inApp;
  return frame;
}

function addCounts(into: ScrubCounts | undefined, more: ScrubCounts | undefined): ScrubCounts | undefined {
  if (!more) return into;
  const total: ScrubCounts = { ...into };
  for (const [rule, count] of Object.entries(more) as [keyof ScrubCounts, number][]) total[rule] = (total[rule] ?? 0) + count;
  return total;
}

/**
 * One Sentry event as this service stores it: mapped to the own shape
 * (event-map.ts), then read exactly as an own-SDK event is (readEvent:
 * cleaned, scrubbed, clipped, its debug ids too; a wrong field is a problem), its frames
 * cleaned and scrubbed the same way, what the scrubber replaced counted
 * together. `fallbackId` is the envelope header's event_id.
 */
export function readSentryEvent(raw: Record<string, unknown>, fallbackId?: unknown): Reading<IngestEvent> {
  const mapped = mapSentryEvent(raw, fallbackId);
  const reading = readEvent(mapped.event);
  if (!reading.ok) return reading;
  const texts = new FrameTexts();
  // A frame with nothing left once read (`{"lineno": -1}`: no text, no valid position) says nothing: not stored.
  const frames = mapped.frames.map((frame) => cleanFrame(frame, texts)).filter((frame) => Object.keys(frame).length > 0);
  // The reader's own new object: completed in place, not copied.
  const event: IngestEvent = reading.value;
  if (frames.length > 0) event.sdkFrames = frames;
  const scrubbed = addCounts(event.scrubbed, texts.replaced);
  if (scrubbed) event.scrubbed = scrubbed;
  return { ok: true, value: event };
}
