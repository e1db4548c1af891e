import { usageChart, type UsagePeriod } from '../chart';
import { FACTORY, type Route } from '../context';
import { html } from '../html';
import { errorBox, page } from '../layout';
import { sendHtml } from '../respond';

export const enrichmentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^/f/${FACTORY}/enrichment$`),
    handle: async (context, [factoryId]) => {
      const fac = factoryId as string;
      const reply = await context.run({ operation: 'enrichment.usage', factoryId: fac });
      const chart = reply.status === 200 ? usageChart((reply.body.periods ?? []) as UsagePeriod[]) : errorBox(reply.status, reply.body.error);
      sendHtml(
        context.res,
        200,
        page({
          title: 'Enrichment',
          factoryId: fac,
          section: 'enrichment',
          where: context.client.where,
          csrfToken: context.session.csrfToken,
          scripts: ['enrichment.js'],
          body: html`<h1>Enrichment</h1>
<section class="card" id="bulk" data-factory="${fac}" aria-labelledby="bulk-title">
<h2 id="bulk-title">Bulk run</h2>
<p class="muted">Enriches every contact of the factory not enriched or billed before, page by page. Contacts already done are passed over and not billed again; stopping and starting again is safe.</p>
<button type="button" id="bulk-start">Start a bulk run</button>
<button type="button" id="bulk-stop" hidden>Stop after this page</button>
<div id="bulk-progress" hidden>
<label for="bulk-bar">Progress</label>
<progress id="bulk-bar" max="1" value="0"></progress> <span id="bulk-percent">0 %</span>
<p id="bulk-counts" role="status" aria-live="polite"></p>
</div>
<div class="result" id="bulk-summary" role="status" aria-live="polite"></div>
</section>
<section aria-labelledby="usage-title"><h2 id="usage-title">Billed passes per month</h2>${chart}</section>`,
        }),
      );
    },
  },
];
