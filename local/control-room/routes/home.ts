import { html, path } from '../html';
import { page } from '../layout';
import { redirect, sendHtml } from '../respond';
import { FACTORY, type Route } from '../context';

const FACTORY_ID = /^fac_[A-Za-z0-9_-]{1,64}$/;

/** The factory picker: a factory id typed in, and the ones this browser opened before (assets/recent.js). */
export const homeRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/$/,
    handle: async ({ res, url, client, session }) => {
      const given = url.searchParams.get('factory') ?? '';
      const problem = given !== '' && !FACTORY_ID.test(given) ? 'A factory id looks like fac_acme: fac_ then letters, digits, _ or -.' : undefined;
      sendHtml(
        res,
        problem ? 400 : 200,
        page({
          title: 'Choose a factory',
          where: client.where,
          csrfToken: session.csrfToken,
          scripts: ['recent.js'],
          body: html`<h1>Choose a factory</h1>
<form class="picker" method="get" action="/go">
  <label for="factory">Factory id</label>
  <input id="factory" name="factory" required pattern="fac_[A-Za-z0-9_\\-]{1,64}" placeholder="fac_acme" value="${given}" autocomplete="off" list="recent-factories">
  <datalist id="recent-factories"></datalist>
  <button type="submit">Open</button>
</form>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<section aria-labelledby="recent-title"><h2 id="recent-title">Opened recently in this browser</h2><ul id="recent" class="recent"><li class="muted">None yet.</li></ul></section>`,
        }),
      );
    },
  },
  {
    method: 'GET',
    pattern: /^\/go$/,
    handle: async ({ res, url }) => {
      const factoryId = (url.searchParams.get('factory') ?? '').trim();
      redirect(res, FACTORY_ID.test(factoryId) ? path`/f/${factoryId}/contacts` : `/?factory=${encodeURIComponent(factoryId)}`);
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/f/${FACTORY}/?$`),
    handle: async ({ res }, [factoryId]) => redirect(res, path`/f/${factoryId as string}/contacts`),
  },
];
