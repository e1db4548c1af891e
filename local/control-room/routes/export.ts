import { FACTORY, type Route } from '../context';
import { streamExport, type ExportFormat } from '../export-stream';
import { html, path } from '../html';
import { errorBox, page } from '../layout';
import { sendHtml } from '../respond';

export const exportRoutes: Route[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^/f/${FACTORY}/export$`),
    handle: async (context, [factoryId]) => {
      const fac = factoryId as string;
      sendHtml(
        context.res,
        200,
        page({
          title: 'Export',
          factoryId: fac,
          section: 'export',
          where: context.client.where,
          csrfToken: context.session.csrfToken,
          body: html`<h1>Export</h1>
<p>Every contact of ${fac}, streamed page by page as it is read: a large factory starts downloading at once.</p>
<ul class="downloads">
<li><a class="button" id="export-csv" href="${path`/f/${fac}/export/contacts.csv`}" download>Download CSV</a> <span class="muted">for spreadsheets (cells that would run as formulas start with ')</span></li>
<li><a class="button" id="export-jsonl" href="${path`/f/${fac}/export/contacts.jsonl`}" download>Download JSON lines</a> <span class="muted">exact values, one contact per line</span></li>
</ul>`,
        }),
      );
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/f/${FACTORY}/export/contacts\\.(csv|jsonl)$`),
    handle: async (context, [factoryId, format]) => {
      const fac = factoryId as string;
      await streamExport(context.res, context.run, fac, format as ExportFormat, (reply) =>
        sendHtml(
          context.res,
          reply.status,
          page({ title: 'Export', factoryId: fac, section: 'export', where: context.client.where, csrfToken: context.session.csrfToken, body: html`<h1>Export</h1>${errorBox(reply.status, reply.body.error)}` }),
        ),
      );
    },
  },
];
