import type { DisplayFrame } from '../../../../lambda/ingest/sourcemaps/display-frames';
import { text } from '../display';
import { html, type Html } from '../html';

/**
 * An event's frames on its page (docs/source-maps.md#reading-original-frames): each original frame (function,
 * source, line and column, and the source lines around it when the map carries them, the frame's line marked),
 * its minified frame one click away, and for a frame not resolved, why. Source names and lines come from an
 * uploaded map: a stranger's text, escaped by `html` like every other field.
 */

const position = (line: unknown, column: unknown): string => (line === undefined ? '' : `:${text(line)}${column === undefined ? '' : `:${text(column)}`}`);

function contextLines(frame: DisplayFrame): Html | string {
  const { context } = frame;
  if (!context) return '';
  return html`<pre class="text source-context">${context.lines.map((line, index) => {
    const number = context.firstLine + index;
    const mark = number === frame.line ? '>' : ' ';
    return html`<span class="${number === frame.line ? 'frame-line' : 'context-line'}">${mark} ${String(number).padStart(4)} | ${line}\n</span>`;
  })}</pre>`;
}

function frameItem(frame: DisplayFrame): Html {
  const { minified } = frame;
  const minifiedText = `${minified.function || '(anonymous)'} ${minified.url}${position(minified.line, minified.column)}`;
  const minifiedPart = html`<details class="minified-frame"><summary>minified frame</summary><code>${minifiedText}</code>${minified.debugId !== undefined ? html` <span class="muted">debug id ${minified.debugId}</span>` : ''}</details>`;
  if (frame.source === undefined) {
    return html`<li class="frame unresolved"><code>${minifiedText}</code><p class="why-not-resolved">Not resolved: ${frame.whyNotResolved ?? ''}</p></li>`;
  }
  return html`<li class="frame resolved"><strong>${frame.function ?? `${minified.function || '(anonymous)'} (minified name)`}</strong> <code>${frame.source}${position(frame.line, frame.column)}</code>${contextLines(frame)}${minifiedPart}</li>`;
}

/** The "Frames" section, or nothing when the event has no frames to show. */
export function framesSection(frames: unknown): Html | string {
  if (!Array.isArray(frames) || frames.length === 0) return '';
  const list = frames as DisplayFrame[];
  const resolved = list.filter((frame) => frame.source !== undefined).length;
  return html`<h3>Frames</h3><p class="muted">${resolved} of ${list.length} resolved through source maps; the top frame first.</p><ol class="frames" id="event-frames">${list.map(frameItem)}</ol>`;
}
