import { html, path, type Html, type Interpolated } from './html';

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

export interface PageOptions {
  title: string;
  factoryId?: string;
  section?: SectionId;
  /** Where the operations run, shown in the footer. */
  where: string;
  csrfToken: string;
  /** Page scripts (files under /assets/), besides the one every page loads. */
  scripts?: string[];
  body: Interpolated;
}

/** A time as the page shows it: the operator's time zone once assets/time.js ran, the UTC value on hover. */
export function time(iso: unknown): Html {
  if (typeof iso !== 'string' || iso === '') return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}" title="${iso} (UTC)">${iso}</time>`;
}

/** A whole page. Scripts and styles come from /assets/ only (the CSP forbids anything inline). */
export function page(options: PageOptions): Html {
  const { factoryId, section } = options;
  const nav = factoryId
    ? html`<nav class="sections" aria-label="Sections">
        <ul>${SECTIONS.map(
          (entry) =>
            html`<li><a href="${path`/f/${factoryId}/${entry.id}`}"${entry.id === section ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
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

/** An operation's error, in its own words, with the status it answered. */
export function errorBox(status: number, error: unknown): Html {
  return html`<div class="error" role="alert"><strong>${status === 404 ? 'Not found' : `Error ${status}`}:</strong> ${String(error)}</div>`;
}
