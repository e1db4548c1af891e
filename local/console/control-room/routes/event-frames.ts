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

/** A server SDK's frame: function, module, file, line and column, and the lines its SDK sent around it. */
function serverFrameItem(frame: DisplayFrame): Html {
  const where = [frame.module, frame.source === undefined ? undefined : `${frame.source}${position(frame.line, frame.column)}`].filter(Boolean).join(' · ');
  return html`<li class="${frame.app ? 'frame server' : 'frame server others-code'}"><strong>${frame.function || '(anonymous)'}</strong> <code>${where}</code>${contextLines(frame)}</li>`;
}

function frameItem(frame: DisplayFrame): Html {
  const { minified } = frame;
  if (!minified) return serverFrameItem(frame);
  // The app's own frames group; the others (packages, SDK wrappers, the engine's) are shown dimmed.
  const dim = frame.app === false ? ' others-code' : '';
  const minifiedText = `${minified.function || '(anonymous)'} ${minified.url}${position(minified.line, minified.column)}`;
  const minifiedPart = html`<details class="minified-frame"><summary>minified frame</summary><code>${minifiedText}</code>${minified.debugId !== undefined ? html` <span class="muted">debug id ${minified.debugId}</span>` : ''}</details>`;
  if (frame.source === undefined) {
    const why = frame.whyNotResolved === undefined ? '' : html`<p class="why-not-resolved">Not resolved: ${frame.whyNotResolved}</p>`;
    return html`<li class="frame unresolved${dim}"><code>${minifiedText}</code>${why}</li>`;
  }
  return html`<li class="frame resolved${dim}"><strong>${frame.function ?? `${minified.function || '(anonymous)'} (minified name)`}</strong> <code>${frame.source}${position(frame.line, frame.column)}</code>${contextLines(frame)}${minifiedPart}</li>`;
}

/** The "Frames" section, or nothing when the event has no frames to show. */
export function framesSection(frames: unknown): Html | string {
  if (!Array.isArray(frames) || frames.length === 0) return '';
  const list = frames as DisplayFrame[];
  const dimmed = list.some((frame) => frame.app === false) ? ' The app’s own frames group the event; the others are dimmed.' : '';
  // Only a page's scripts need a map: a server's frames arrive as written.
  const scripts = list.filter((frame) => frame.minified !== undefined && (frame.source !== undefined || frame.whyNotResolved !== undefined));
  const resolved = scripts.filter((frame) => frame.source !== undefined).length;
  const summary =
    scripts.length === 0 ? `${list.length} frames as the SDK sent them` : `${resolved} of ${scripts.length} script frames resolved through source maps`;
  return html`<h3>Frames</h3><p class="muted">${summary}; the top frame first.${dimmed}</p><ol class="frames" id="event-frames">${list.map(frameItem)}</ol>`;
}
