import type { ServerResponse } from 'node:http';
import type { ContactExportAnswer } from '../../../lambda/control/contact-operations';
import type { ExportFormat } from '../../../lambda/control/export-format';
import type { ControlReply } from '../control/client';
import { typedReply, type TypedReply } from '../control/typed-reply';
import { SECURITY_HEADERS } from './security';

/** Contacts per contacts.export call: big pages, few round trips; two pages at most are held at once. */
export const EXPORT_PAGE = 2000;

/** The browser is gone (it closed the tab, cancelled the download): nothing more is asked for or written. */
const gone = (res: ServerResponse) => res.destroyed || res.closed;

/**
 * Until the socket takes more, or the browser went away: at once when it is
 * gone already (a 'close' that came before would never come again). Each
 * listener removed again: one pair per page.
 */
function drainedOrGone(res: ServerResponse): Promise<void> {
  if (gone(res)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

/**
 * Streams a factory's contacts to the browser page by page with
 * contacts.export (the operation `control contacts export` runs): the next
 * page is asked for while the current one is written, each write waits for
 * the socket to drain, and nothing is kept once written. A browser that goes
 * away ends it: no page is asked for or written after that. A failure before
 * the first byte is answered as an error; after it the connection is cut,
 * so the browser marks the download failed instead of keeping half a file.
 */
export async function streamExport(
  res: ServerResponse,
  run: (request: unknown) => Promise<ControlReply>,
  factoryId: string,
  format: ExportFormat,
  onError: (reply: Extract<TypedReply<'contacts.export'>, { ok: false }>) => void,
): Promise<void> {
  const fetchPage = (cursor?: string): Promise<TypedReply<'contacts.export'>> =>
    run({ operation: 'contacts.export', factoryId, format, limit: EXPORT_PAGE, ...(cursor === undefined ? {} : { cursor }) }).then((reply) =>
      typedReply<'contacts.export'>(reply),
    );
  const first = await fetchPage();
  if (gone(res)) return;
  if (!first.ok) {
    onError(first);
    return;
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': CONTENT_TYPES[format],
    'content-disposition': `attachment; filename="${factoryId}-contacts.${format}"`,
  });
  let page: ContactExportAnswer = first.body;
  for (;;) {
    const next = page.cursor === undefined ? undefined : fetchPage(page.cursor);
    // Unhandled while this page is written: its failure is handled when awaited below.
    next?.catch(() => undefined);
    if (!res.write(String(page.data))) await drainedOrGone(res);
    if (gone(res) || next === undefined) break;
    let reply: TypedReply<'contacts.export'>;
    try {
      reply = await next;
    } catch {
      res.destroy();
      return;
    }
    // Gone while the page was read: it is dropped, and the page after it never asked for.
    if (gone(res)) return;
    if (!reply.ok) {
      res.destroy();
      return;
    }
    page = reply.body;
  }
  if (!gone(res)) res.end();
}
