import { list, reloadWithFlash, runOperation, showError, showLines } from './operation.js';

// Clear fields: choose, give a reason, confirm in the page, then the operation's answer.
const form = document.getElementById('clear-form');
const confirmBox = document.getElementById('clear-confirm');
const clearResult = document.getElementById('clear-result');
let pending;

form?.addEventListener('submit', (event) => {
  event.preventDefault();
  const fields = [...form.querySelectorAll('input[name="field"]:checked')].map((input) => input.value);
  if (fields.length === 0) {
    showLines(clearResult, ['Choose at least one field to clear.'], 'error');
    return;
  }
  const reason = form.elements.reason.value.trim();
  pending = { operation: 'contacts.clear', factoryId: form.dataset.factory, contactId: form.dataset.contact, fields, ...(reason ? { reason } : {}) };
  document.getElementById('clear-confirm-text').textContent =
    `Clear ${fields.join(', ')} of this contact? The values are kept in its cleared history, and enrichment will not bring them back.`;
  confirmBox.hidden = false;
  document.getElementById('clear-yes').focus();
});

document.getElementById('clear-no')?.addEventListener('click', () => {
  confirmBox.hidden = true;
  pending = undefined;
});

document.getElementById('clear-yes')?.addEventListener('click', async (event) => {
  if (!pending) return;
  event.target.disabled = true;
  showLines(clearResult, ['Clearing …']);
  const reply = await runOperation(pending);
  event.target.disabled = false;
  confirmBox.hidden = true;
  pending = undefined;
  if (reply.status !== 200) {
    showError(clearResult, reply);
    return;
  }
  const { cleared, alreadyEmpty, changed } = reply.body;
  reloadWithFlash([`Cleared: ${list(cleared)}.`, `Already empty: ${list(alreadyEmpty)}.`, `Changed meanwhile (kept): ${list(changed)}.`]);
});

// Refresh enrichment: found, applied (filled fields that were empty), ignored (cleared before), billed.
const refresh = document.getElementById('refresh');
const refreshResult = document.getElementById('refresh-result');
refresh?.addEventListener('click', async () => {
  const card = document.getElementById('refresh-card');
  refresh.disabled = true;
  showLines(refreshResult, ['Asking the data sources …']);
  const reply = await runOperation({ operation: 'enrichment.refresh', factoryId: card.dataset.factory, contactId: card.dataset.contact });
  refresh.disabled = false;
  if (reply.status !== 200) {
    showError(refreshResult, reply);
    return;
  }
  const { outcome, billed, found = {}, ignored = [] } = reply.body;
  const had = new Set([...document.querySelectorAll('#contact-fields tr[data-field]')].map((row) => row.dataset.field));
  const applied = outcome === 'enriched' ? Object.keys(found).filter((field) => !had.has(field) && !ignored.includes(field)) : [];
  const foundText = Object.entries(found).map(([field, value]) => `${field} "${value}"`);
  reloadWithFlash([
    `Refresh: ${outcome}.`,
    `Found: ${list(foundText)}.`,
    `Applied: ${list(applied)}.`,
    `Ignored (cleared before): ${list(ignored)}.`,
    `Billed: ${billed ? 'yes' : 'no'}.`,
  ]);
});
