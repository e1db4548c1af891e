import { CONTACT_ID_PATTERN } from '../../../../lambda/kernel/contact-id-digest';
import { route, type Route, type RouteContext } from '../context';
import { errorBox, text, time } from '../display';
import { html, path, type Html } from '../html';
import { renderPage } from '../layout';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Who the page was opened for, when it came from a contact's page: the contact as stored, and how many reports its first page lists. */
async function named(context: RouteContext, factoryId: string, contactId: string): Promise<Html> {
  const reply = await context.run({ operation: 'contacts.show', factoryId, contactId });
  if (reply.status === 404) return html`<p class="muted">No contact ${contactId} in this factory: erasing it still looks for its pass markers.</p>`;
  if (reply.status !== 200 || !isObject(reply.body.contact)) return errorBox(reply.status, reply.body.error);
  const reports = Array.isArray(reply.body.reports) ? reply.body.reports.length : 0;
  const more = typeof reply.body.reportsCursor === 'string';
  return html`<p>Contact <strong>${text(reply.body.contact.email)}</strong> (${contactId}), created ${time(reply.body.contact.createdAt)}:
${reports === 0 ? 'no bug report or feature request names this email.' : html`${reports}${more ? '+' : ''} report${reports === 1 ? '' : 's'} name this email.`}</p>`;
}

/**
 * The erasure page (docs/control-room-app.md#the-pages): a person
 * named by email or contact id, their data exported first if wanted, then
 * erased after the operator typed the same name again (assets/erase.js runs
 * contacts.export-person and contacts.erase through /api/operation, with the
 * session's CSRF token and Origin checks every state change has).
 */
async function erasePage(context: RouteContext, factoryId: string): Promise<void> {
  const asked = context.url.searchParams.get('contact') ?? '';
  // Only a well-formed contact id is taken from the URL into the page.
  const contactId = CONTACT_ID_PATTERN.test(asked) ? asked : '';
  const body = html`<h1>Erase a person</h1>
<p>Erasing deletes the contact with everything kept on it (its enrichment record, cleared values and who cleared them),
its enrichment pass markers, and the reporter's email and name on every bug report and feature request that named this email.
The reports themselves stay, without their reporter. The enrichment vendor's record of this email is deleted too, for every
factory, and later dataset loads leave the person out. Companies stay. A later upsert of the same email creates a new contact.
Backups (35 days) and logs keep copies for a while: docs/privacy.md says where.</p>
${contactId === '' ? '' : await named(context, factoryId, contactId)}
<form id="erase-form" class="card danger-zone" data-factory="${factoryId}" autocomplete="off">
  <label for="erase-who">Email or contact id</label>
  <input id="erase-who" name="who" required value="${contactId}" placeholder="ada@example.com or ct_…" spellcheck="false">
  <div class="buttons">
    <button type="button" id="erase-export">Export this person's data first</button>
    <button type="submit" class="danger">Erase…</button>
  </div>
  <div class="confirm" id="erase-confirm" hidden>
    <p id="erase-confirm-text"></p>
    <label for="erase-again">Type it again to confirm</label>
    <input id="erase-again" name="again" spellcheck="false">
    <button type="button" class="danger" id="erase-yes">Yes, erase</button>
    <button type="button" id="erase-no">Cancel</button>
  </div>
  <div class="result" id="erase-result" role="status" aria-live="polite"></div>
</form>
<p><a href="${path`/f/${factoryId}/contacts`}">Back to the contacts</a></p>`;
  renderPage(context, 200, { title: 'Erase a person', factoryId, section: 'contacts', scripts: ['erase.js'], body });
}

export const eraseRoutes: Route[] = [route('GET', '/f/:factoryId/erase', (context, { factoryId }) => erasePage(context, factoryId))];
