import { FACTORY_ID_PATTERN } from '../../../../lambda/kernel/factory-id';
import { route, type Route } from '../context';
import { html, path, withQuery } from '../html';
import { FACTORY_ID_INPUT_PATTERN, renderPage } from '../layout';
import { redirect } from '../respond';

/** The factory picker: a factory id typed in, and the ones this browser opened before (assets/recent.js). */
export const homeRoutes: Route[] = [
  route('GET', '/', async (context) => {
    const given = context.url.searchParams.get('factory') ?? '';
    const problem = given !== '' && !FACTORY_ID_PATTERN.test(given) ? 'A factory id looks like fac_acme: fac_ then letters, digits, _ or -.' : undefined;
    renderPage(context, problem ? 400 : 200, {
      title: 'Choose a factory',
      scripts: ['recent.js'],
      body: html`<h1>Choose a factory</h1>
<form class="picker" method="get" action="/go">
  <label for="factory">Factory id</label>
  <input id="factory" name="factory" required pattern="${FACTORY_ID_INPUT_PATTERN}" placeholder="fac_acme" value="${given}" autocomplete="off" list="recent-factories">
  <datalist id="recent-factories"></datalist>
  <button type="submit">Open</button>
</form>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<section aria-labelledby="recent-title"><h2 id="recent-title">Opened recently in this browser</h2><ul id="recent" class="recent"><li class="muted">None yet.</li></ul></section>`,
    });
  }),
  route('GET', '/go', async ({ res, url }) => {
    const factoryId = (url.searchParams.get('factory') ?? '').trim();
    redirect(res, FACTORY_ID_PATTERN.test(factoryId) ? path`/f/${factoryId}/contacts` : withQuery('/', { factory: factoryId }));
  }),
  route('GET', '/f/:factoryId', async ({ res }, { factoryId }) => redirect(res, path`/f/${factoryId}/contacts`)),
  route('GET', '/f/:factoryId/', async ({ res }, { factoryId }) => redirect(res, path`/f/${factoryId}/contacts`)),
];
