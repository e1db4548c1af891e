import type { ControlContact } from '../../../../lambda/control/view';
import { appLink, text, time } from '../display';
import { html, type Html } from '../html';

/** A contact as the operations answer it (controlView): the tables show some of its fields. */
export type ContactRow = ControlContact;

/** A table of contacts, each linking to its page. */
export function contactTable(factoryId: string, contacts: ContactRow[], caption: string): Html {
  if (contacts.length === 0) return html`<p class="empty">No contacts on this page.</p>`;
  return html`<div class="table-wrap"><table class="list">
<caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Title</th><th scope="col">Company</th><th scope="col">Enriched</th><th scope="col">Updated</th></tr></thead>
<tbody>${contacts.map(
    (contact) => html`<tr>
<td>${appLink(['f', factoryId, 'contacts', contact.id], text(contact.email))}</td>
<td>${text(contact.name)}</td>
<td>${text(contact.title)}</td>
<td>${contact.companyId ? appLink(['f', factoryId, 'companies', contact.companyId], text(contact.companyDomain ?? contact.companyId)) : ''}</td>
<td>${contact.enriched === true ? 'yes' : 'no'}</td>
<td>${time(contact.updatedAt)}</td>
</tr>`,
  )}</tbody></table></div>`;
}
