import { FACTORY_ID_PATTERN } from '../../../lambda/kernel/factory-id';
import type { RouteContext } from './context';
import { html, path, type Html, type Interpolated } from './html';
import { sendHtml } from './respond';

/** The sections of a factory, in the order the navigation shows them. */
export const SECTIONS = [
  { id: 'contacts', label: 'Contacts' },
  { id: 'companies', label: 'Companies' },
  { id: 'enrichment', label: 'Enrichment' },
  { id: 'export', label: 'Export' },
  { id: 'keys', label: 'Keys' },
  { id: 'reports', label: 'Reports' },
  { id: 'alerts', label: 'Alerts' },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];

/** What a page shows: the rest (where the operations run, the CSRF token) comes from the request's context. */
export interface PageContent {
  title: string;
  factoryId?: string;
  section?: SectionId;
  /** Page scripts (files under /assets/), besides the one every page loads. */
  scripts?: string[];
  body: Interpolated;
}

export interface PageOptions extends PageContent {
  /** Where the operations run, shown in the footer. */
  where: string;
  csrfToken: string;
}

/** The factory-id pattern for an HTML `pattern` attribute (anchored by the browser itself). */
export const FACTORY_ID_INPUT_PATTERN = FACTORY_ID_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '');

/** The one way a route answers with a page: the page's content, in the layout, with the security headers. */
export function renderPage(context: Pick<RouteContext, 'res' | 'client' | 'session'>, status: number, content: PageContent): void {
  sendHtml(context.res, status, page({ ...content, where: context.client.where, csrfToken: context.session.csrfToken }));
}

/** A whole page. Scripts and styles come from /assets/ only (the CSP forbids anything inline). */
export function page(options: PageOptions): Html {
  const { factoryId, section } = options;
  const nav = factoryId
    ? html`<nav class="sections" aria-label="Sections">
        <ul>${SECTIONS.map(
          (entry) => html`<li><a href="${path`/f/${factoryId}/${entry.id}`}"${entry.id === section ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
        )}</ul>
      </nav>`
    : '';
  const scripts = ['app.js', ...(options.scripts ?? [])];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${options.csrfToken}">
<meta name="factory-id-pattern" content="${FACTORY_ID_INPUT_PATTERN}">
<title>${options.title} · Control room</title>
<link rel="stylesheet" href="/assets/app.css">
<link rel="icon" href="data:,">
${scripts.map((name) => html`<script type="module" src="${`/assets/${name}`}"></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/">Control room</a>
  ${factoryId ? html`<a class="factory" href="/" title="Choose another factory">${factoryId}</a>` : ''}
  ${nav}
</header>
<div id="flash" role="status" aria-live="polite" class="flash" hidden></div>
<main id="main" tabindex="-1">
${options.body}
</main>
<footer class="bottom">Operations run on ${options.where}</footer>
</body>
</html>`;
}
