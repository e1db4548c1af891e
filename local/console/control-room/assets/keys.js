import { offerCopy, reloadWithFlash, runOperation, showError, showLines } from './operation.js';

// Create a key: the secret is shown once, with a copy button; the list reloads when the operator is done.
const form = document.getElementById('create-key');
const createResult = document.getElementById('create-result');
form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const type = form.elements.type.value;
  const origins = form.elements.origins.value.split(/\s+/).filter(Boolean);
  const rate = form.elements.rateLimit.value.trim();
  const request = {
    operation: 'keys.create',
    factoryId: form.dataset.factory,
    type,
    ...(origins.length > 0 ? { origins } : {}),
    ...(rate === '' ? {} : { rateLimit: Number(rate) }),
  };
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  const reply = await runOperation(request);
  button.disabled = false;
  if (reply.status !== 200) {
    showError(createResult, reply);
    return;
  }
  showLines(createResult, [`Created ${reply.body.keyId} (${reply.body.type}).`]);
  document.getElementById('secret-value').textContent = reply.body.key;
  const panel = document.getElementById('new-secret');
  panel.hidden = false;
  document.getElementById('copy-secret').focus();
});

offerCopy('key');

document.getElementById('secret-done')?.addEventListener('click', () => {
  document.getElementById('secret-value').textContent = '';
  location.reload();
});

// Revoke: one confirmation in the page, then the operation.
const confirmBox = document.getElementById('revoke-confirm');
let target;
for (const button of document.querySelectorAll('button.revoke')) {
  button.addEventListener('click', () => {
    target = button.dataset.keyId;
    document.getElementById('revoke-text').textContent = `Revoke ${target} (${button.dataset.hint})? Every request with it gets 401 from now on.`;
    confirmBox.hidden = false;
    document.getElementById('revoke-yes').focus();
  });
}
document.getElementById('revoke-no')?.addEventListener('click', () => {
  confirmBox.hidden = true;
  target = undefined;
});
document.getElementById('revoke-yes')?.addEventListener('click', async () => {
  if (!target) return;
  const reply = await runOperation({ operation: 'keys.revoke', factoryId: confirmBox.dataset.factory, keyId: target });
  if (reply.status !== 200) {
    showError(document.getElementById('revoke-result'), reply);
    return;
  }
  reloadWithFlash([`Revoked ${reply.body.keyId}.`]);
});
