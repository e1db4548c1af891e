import { runOperation, showError, showLines } from './operation.js';

// Erasing a person: name them, optionally export their data, type the name again, then erase.
const form = document.getElementById('erase-form');
const result = document.getElementById('erase-result');
const confirmBox = document.getElementById('erase-confirm');
const again = document.getElementById('erase-again');
const factoryId = form?.dataset.factory;

// The request naming the person: a contact id as it is, anything else as an email (the operation checks it).
function person(who) {
  const value = who.trim();
  return /^ct_/.test(value) ? { contactId: value } : { email: value };
}

document.getElementById('erase-export')?.addEventListener('click', async (event) => {
  const who = form.elements.who.value;
  if (who.trim() === '') return showLines(result, ['Name the person first.'], 'error');
  event.target.disabled = true;
  showLines(result, ['Exporting …']);
  const request = { operation: 'contacts.export-person', factoryId, ...person(who) };
  let reply = await runOperation(request);
  const whole = reply.body;
  const reports = [...(whole.reports ?? [])];
  while (reply.status === 200 && typeof reply.body.cursor === 'string') {
    reply = await runOperation({ ...request, cursor: reply.body.cursor });
    reports.push(...(reply.body.reports ?? []));
  }
  event.target.disabled = false;
  if (reply.status !== 200) return showError(result, reply);
  delete whole.cursor;
  // A file the operator keeps, made in the page: nothing of it is ever parsed as markup.
  const file = new Blob([`${JSON.stringify({ ...whole, reports }, null, 2)}\n`], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = `person-${whole.contactId}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
  showLines(result, [
    `Exported: ${whole.contact ? 'the contact, ' : 'no contact, '}${(whole.passes ?? []).length} pass markers, ${whole.vendorRecord ? "the vendor's record, " : ''}${reports.length} reports.`,
  ]);
});

form?.addEventListener('submit', (event) => {
  event.preventDefault();
  const who = form.elements.who.value.trim();
  document.getElementById('erase-confirm-text').textContent =
    `Erase ${who}? This cannot be undone: the contact and its history are deleted, this email is forgotten on every report, and the vendor's record of it is deleted for every factory and kept out of later loads.`;
  again.value = '';
  confirmBox.hidden = false;
  again.focus();
});

document.getElementById('erase-no')?.addEventListener('click', () => {
  confirmBox.hidden = true;
});

document.getElementById('erase-yes')?.addEventListener('click', async (event) => {
  const who = form.elements.who.value.trim();
  if (again.value.trim() !== who) return showLines(result, ['Type the same email or contact id again to confirm.'], 'error');
  event.target.disabled = true;
  showLines(result, ['Erasing …']);
  const reply = await runOperation({ operation: 'contacts.erase', factoryId, ...person(who) });
  event.target.disabled = false;
  confirmBox.hidden = true;
  if (reply.status !== 200) return showError(result, reply);
  const erased = reply.body;
  showLines(result, [
    erased.erased ? `Erased ${erased.contactId}.` : `Nothing found to erase for ${erased.contactId}: nothing was removed.`,
    `Contact deleted: ${erased.contact ? 'yes' : 'no'}. Pass markers: ${erased.passMarkers}. Vendor's record deleted: ${erased.vendorRecord ? 'yes' : 'no'}. Events forgotten: ${erased.events}. Feature requests forgotten: ${erased.featureRequests}.`,
    ...(erased.complete ? [] : ['Not finished (time ran out): erase again to finish.']),
    `Recorded in the audit log as ${erased.personKey ?? erased.contactId}.`,
  ]);
  form.elements.who.value = '';
});
