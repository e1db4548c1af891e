import type { Reading } from '../../kernel/reading';
import { cleanText } from '../../kernel/free-text';
import type { IngestEvent, SdkFrame } from '../issues/stored-event';
import { readEvent } from '../payloads';
import type { ScrubCounts } from '../scrub/rule';
import { Scrubber } from '../scrub/scrubber';
import { mapSentryEvent, type RawFrame } from './event-map';

/** Characters kept of a frame's texts: a function or module name, a file or URL, a line of source. */
const FRAME_TEXT = { function: 256, module: 256, file: 1024, contextLine: 512 } as const;

/** A frame's text cleaned (one line), scrubbed and clipped; dropped when it cannot be kept (a lone surrogate). */
function frameText(value: string | undefined, max: number, scrubber: Scrubber): string | undefined {
  if (value === undefined) return undefined;
  const checked = cleanText(value, { field: 'a frame', lines: 'single-line', max, scrub: (cleaned) => scrubber.text(cleaned) });
  return checked.ok && checked.text !== '' ? checked.text : undefined;
}

/** A source line cleaned and scrubbed, its indentation (spaces and tabs, which cleaning trims) kept: the page shows code as written. */
function sourceLine(line: string | undefined, scrubber: Scrubber): string | undefined {
  if (line === undefined) return undefined;
  const text = frameText(line, FRAME_TEXT.contextLine, scrubber);
  return text === undefined ? undefined : `${/^[ \t]{0,40}/.exec(line)?.[0] ?? ''}${text}`;
}

/** Source lines around a frame's line, each as its line is (an unkeepable one kept empty, so lines stay in place). */
const contextTexts = (lines: string[] | undefined, scrubber: Scrubber): string[] | undefined => lines?.map((line) => sourceLine(line, scrubber) ?? '');

function cleanFrame(raw: RawFrame, scrubber: Scrubber): SdkFrame {
  const frame: SdkFrame = {
    function: frameText(raw.function, FRAME_TEXT.function, scrubber),
    module: frameText(raw.module, FRAME_TEXT.module, scrubber),
    file: frameText(raw.file, FRAME_TEXT.file, scrubber),
    line: raw.line,
    column: raw.column,
    contextLine: sourceLine(raw.contextLine, scrubber),
    pre: contextTexts(raw.pre, scrubber),
    post: contextTexts(raw.post, scrubber),
    inApp: raw.inApp,
  };
  for (const key of Object.keys(frame) as (keyof SdkFrame)[]) if (frame[key] === undefined) delete frame[key];
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
  const scrubber = new Scrubber();
  // A frame with nothing left once read (`{"lineno": -1}`: no text, no valid position) says nothing: not stored.
  const frames = mapped.frames.map((frame) => cleanFrame(frame, scrubber)).filter((frame) => Object.keys(frame).length > 0);
  const event: IngestEvent = { ...reading.value };
  if (frames.length > 0) event.sdkFrames = frames;
  const scrubbed = addCounts(event.scrubbed, scrubber.replaced);
  if (scrubbed) event.scrubbed = scrubbed;
  return { ok: true, value: event };
}
