import { usageChart } from '../usage-chart';
import { route, type Route } from '../context';
import { errorBox } from '../display';
import { html } from '../html';
import { renderPage } from '../layout';

export const enrichmentRoutes: Route[] = [
  route('GET', '/f/:factoryId/enrichment', async (context, { factoryId }) => {
    const reply = await context.ask({ operation: 'enrichment.usage', factoryId });
    const chart = reply.ok ? usageChart(reply.body.periods) : errorBox(reply.status, reply.body.error);
    renderPage(context, 200, {
      title: 'Enrichment',
      factoryId,
      section: 'enrichment',
      scripts: ['enrichment.js'],
      body: html`<h1>Enrichment</h1>
<section class="card" id="bulk" data-factory="${factoryId}" aria-labelledby="bulk-title">
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
    });
  }),
];
