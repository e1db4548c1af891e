import { EXPORT_FORMATS } from '../../../../lambda/control/export-format';
import { route, type Route } from '../context';
import { errorBox } from '../display';
import { streamExport } from '../export-stream';
import { html, path } from '../html';
import { renderPage } from '../layout';

export const exportRoutes: Route[] = [
  route('GET', '/f/:factoryId/export', async (context, { factoryId }) => {
    renderPage(context, 200, {
      title: 'Export',
      factoryId,
      section: 'export',
      body: html`<h1>Export</h1>
<p>Every contact of ${factoryId}, streamed page by page as it is read: a large factory starts downloading at once.</p>
<ul class="downloads">
<li><a class="button" id="export-csv" href="${path`/f/${factoryId}/export/contacts.csv`}" download>Download CSV</a> <span class="muted">for spreadsheets (cells that would run as formulas start with ')</span></li>
<li><a class="button" id="export-jsonl" href="${path`/f/${factoryId}/export/contacts.jsonl`}" download>Download JSON lines</a> <span class="muted">exact values, one contact per line</span></li>
</ul>`,
    });
  }),
  route('GET', '/f/:factoryId/export/contacts.:format', async (context, { factoryId, format }) => {
    // The path's pattern admits the export formats only: this finds the one named.
    const exportFormat = EXPORT_FORMATS.find((known) => known === format) ?? 'jsonl';
    await streamExport(context.res, context.run, factoryId, exportFormat, (reply) =>
      renderPage(context, reply.status, {
        title: 'Export',
        factoryId,
        section: 'export',
        body: html`<h1>Export</h1>${errorBox(reply.status, reply.body.error)}`,
      }),
    );
  }),
];
