import type { Company, PassMarker } from '../../../../lambda/control/ports';
import type { ControlContact } from '../../../../lambda/control/view';
import { CLEARABLE_FIELDS } from '../../../../lambda/contacts/domain/cleared';
import type { RouteContext } from '../context';
import { appLink, errorBox, text, time } from '../display';
import { html, path, withQuery, type Html } from '../html';
import { renderPage } from '../layout';
import { cursorOf, pageNumberOf } from '../pager';
import { affectedIssuesSection } from './affected-section';
import { personReportsSection } from './person-reports';

type Json = Record<string, unknown>;

const TIME_FIELDS = new Set(['createdAt', 'updatedAt', 'enrichmentCheckedAt']);
/** Shown in sections of their own, not in the fields table. */
const OWN_SECTIONS = new Set(['enrichment', 'cleared']);
/** How the clear form names each clearable attribute (the operation takes `company` for companyId). */
const CLEAR_NAMES: Record<string, string> = { companyId: 'company' };

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's value as the page shows it: times localized, the company linked, a web page linked only when it is http(s). */
function fieldValue(factoryId: string, field: string, value: unknown): Html {
  if (TIME_FIELDS.has(field)) return time(value);
  if (field === 'companyId') return appLink(['f', factoryId, 'companies', value], text(value));
  if (field === 'page' && typeof value === 'string' && /^https?:\/\//i.test(value)) {
    return html`<a href="${value}" rel="noopener noreferrer nofollow" target="_blank">${value}</a>`;
  }
  return html`${text(value)}`;
}

function fieldsSection(factoryId: string, contact: ControlContact): Html {
  const rows = Object.entries(contact).filter(([field]) => !OWN_SECTIONS.has(field));
  return html`<section aria-labelledby="fields-title"><h2 id="fields-title">Fields</h2>
<table class="fields" id="contact-fields"><tbody>${rows.map(
    ([field, value]) => html`<tr data-field="${field}"><th scope="row">${field}</th><td>${fieldValue(factoryId, field, value)}</td></tr>`,
  )}</tbody></table></section>`;
}

function companySection(factoryId: string, company: Company | undefined): Html {
  if (!company) return html``;
  return html`<section aria-labelledby="company-title"><h2 id="company-title">Company</h2>
<p>${appLink(['f', factoryId, 'companies', company.id], text(company.name))} · ${text(company.domain)} · since ${time(company.createdAt)}</p></section>`;
}

/**
 * The enrichment record: who and when, what the last pass found, and for
 * each found value whether the contact holds it (applied) or kept the
 * caller's own value (not applied).
 */
function enrichmentSection(contact: ControlContact, passes: PassMarker[]): Html {
  const record = contact.enrichment;
  // The contact's fields by name: what a found value is compared with.
  const held = new Map<string, unknown>(Object.entries(contact));
  const passList = Array.isArray(passes) ? passes : [];
  const checked = contact.enrichmentCheckedAt;
  if (!isObject(record)) {
    return html`<section aria-labelledby="enrichment-title"><h2 id="enrichment-title">Enrichment</h2>
<p class="muted">Never enriched.${checked ? html` Last billed pass ${time(checked)}.` : ''}</p></section>`;
  }
  const found = isObject(record.fields) ? Object.entries(record.fields) : [];
  return html`<section aria-labelledby="enrichment-title"><h2 id="enrichment-title">Enrichment</h2>
<p>By <strong>${text(record.provider)}</strong> at ${time(record.at)}${checked ? html` · last billed pass ${time(checked)}` : ''}</p>
${
  found.length === 0
    ? html`<p class="muted">The last pass found nothing that is still kept.</p>`
    : html`<table class="list"><caption>What the last pass found</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Found</th><th scope="col">Applied</th></tr></thead>
<tbody>${found.map(([field, value]) => {
        const applied = held.get(field) === value;
        const stood = held.get(field) === undefined ? '' : html`: ${text(held.get(field))}`;
        return html`<tr><th scope="row">${field}</th><td>${text(value)}</td><td>${
          applied ? 'yes' : html`<span class="badge warn">no</span> the contact's own value stood${stood}`
        }</td></tr>`;
      })}</tbody></table>`
}
${passList.length > 0 ? html`<p class="muted">Control-room passes applied: ${passList.map((pass, index) => html`${index > 0 ? ', ' : ''}${text(pass.passId)} (${time(pass.at)})`)}</p>` : ''}
</section>`;
}

function clearedSection(contact: ControlContact): Html {
  const cleared = Object.entries(contact.cleared ?? {});
  return html`<section aria-labelledby="cleared-title"><h2 id="cleared-title">Cleared</h2>
${
  cleared.length === 0
    ? html`<p class="muted">Nothing cleared.</p>`
    : html`<div class="table-wrap"><table class="list" id="cleared"><thead><tr><th scope="col">Field</th><th scope="col">Value</th><th scope="col">When</th><th scope="col">By</th><th scope="col">Why</th></tr></thead>
<tbody>${cleared.map(([field, record]) => {
        return html`<tr><th scope="row">${field}</th><td class="words">${text(record?.value)}</td><td>${time(record?.at)}</td><td>${text(record?.by)}</td><td>${record?.reason === undefined ? html`<span class="muted">—</span>` : text(record.reason)}</td></tr>`;
      })}</tbody></table></div>`
}</section>`;
}

function actions(factoryId: string, contact: ControlContact): Html {
  return html`<section aria-labelledby="actions-title" class="actions"><h2 id="actions-title">Actions</h2>
<div class="cards">
<form id="clear-form" class="card" data-factory="${factoryId}" data-contact="${text(contact.id)}">
  <h3>Clear fields</h3>
  <fieldset><legend>Fields</legend>
  ${CLEARABLE_FIELDS.map((field) => {
    const name = CLEAR_NAMES[field] ?? field;
    const empty = contact[field] === undefined;
    return html`<label class="check"><input type="checkbox" name="field" value="${name}"> ${name}${empty ? html` <span class="muted">(empty)</span>` : ''}</label>`;
  })}
  </fieldset>
  <label for="clear-reason">Reason</label>
  <textarea id="clear-reason" name="reason" maxlength="500" rows="2" required placeholder="Why, for the record (e.g. ticket 4711: customer asked)"></textarea>
  <button type="submit">Clear…</button>
  <div class="confirm" id="clear-confirm" hidden>
    <p id="clear-confirm-text"></p>
    <button type="button" class="danger" id="clear-yes">Yes, clear</button>
    <button type="button" id="clear-no">Cancel</button>
  </div>
  <div class="result" id="clear-result" role="status" aria-live="polite"></div>
</form>
<div class="card danger-zone" id="erase-card">
  <h3>Erase this person</h3>
  <p class="muted">Deletes the contact with its history and forgets this email on every report. Asks to confirm first.</p>
  <a class="button danger" href="${withQuery(path`/f/${factoryId}/erase`, { contact: text(contact.id) })}">Erase…</a>
</div>
<div class="card" id="refresh-card" data-factory="${factoryId}" data-contact="${text(contact.id)}">
  <h3>Refresh enrichment</h3>
  <p class="muted">Asks the data sources again now. A pass that finds something is billed.</p>
  <button type="button" id="refresh">Refresh enrichment</button>
  <div class="result" id="refresh-result" role="status" aria-live="polite"></div>
</div>
</div></section>`;
}

/** A contact's page: contacts.show, with the clear and refresh actions (assets/contact.js). */
export async function contactPage(context: RouteContext, factoryId: string, contactId: string): Promise<void> {
  // The page's cursor pages the person's reports; the contact is shown again with each page.
  const reportsCursor = cursorOf(context.url).cursor;
  const reply = await context.ask({ operation: 'contacts.show', factoryId, contactId, ...(reportsCursor === undefined ? {} : { reportsCursor }) });
  if (!reply.ok) {
    const body = html`<h1>Contact ${contactId}</h1>${errorBox(reply.status, reply.body.error)}`;
    renderPage(context, reply.status, { title: contactId, factoryId, section: 'contacts', scripts: ['contact.js'], body });
    return;
  }
  const { contact, company, passes } = reply.body;
  const body = html`<h1>${text(contact.email)}</h1>
<p class="muted">${contactId}</p>
<div class="columns">
<div>${fieldsSection(factoryId, contact)}${companySection(factoryId, company)}</div>
<div>${enrichmentSection(contact, passes)}${clearedSection(contact)}</div>
</div>${affectedIssuesSection(factoryId, contactId, reply.body.issues)}${personReportsSection(factoryId, contactId, reply.body.reports, reply.body.reportsCursor, pageNumberOf(context.url))}
${actions(factoryId, contact)}`;
  renderPage(context, reply.status, { title: text(contact.email), factoryId, section: 'contacts', scripts: ['contact.js'], body });
}
