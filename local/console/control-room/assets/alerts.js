import { offerCopy, reloadWithFlash, runOperation, showError, showLines } from './operation.js';

// The alerts page: each button is one alerts.* operation; answers are shown as text only.
const factoryId = document.getElementById('alert-confirm')?.dataset.factory;
const rowResult = document.getElementById('row-result');
const secretPanel = document.getElementById('new-secret');

function showSecret(secret) {
  document.getElementById('secret-value').textContent = secret;
  secretPanel.hidden = false;
  document.getElementById('copy-secret').focus();
}

const form = document.getElementById('add-destination');
form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const types = [...form.querySelectorAll('input[name="types"]:checked')].map((box) => box.value);
  const description = form.elements.description.value.trim();
  const request = {
    operation: 'alerts.add',
    factoryId,
    url: form.elements.url.value.trim(),
    ...(types.length > 0 ? { types } : {}),
    ...(description ? { description } : {}),
  };
  const reply = await runOperation(request);
  const result = document.getElementById('add-result');
  if (reply.status !== 200) return showError(result, reply);
  showLines(result, [`Added ${reply.body.destinationId}.`]);
  showSecret(reply.body.secret);
});

offerCopy('secret');
document.getElementById('secret-done')?.addEventListener('click', () => reloadWithFlash(['The secret is no longer shown.']));

// A confirmation panel for rotate, disable (with its reason) and remove.
const confirmPanel = document.getElementById('alert-confirm');
const reason = document.getElementById('confirm-reason');
let pending;
function ask(textLine, withReason, run) {
  document.getElementById('confirm-text').textContent = textLine;
  reason.hidden = !withReason;
  document.getElementById('confirm-reason-label').hidden = !withReason;
  reason.value = '';
  pending = run;
  confirmPanel.hidden = false;
  (withReason ? reason : document.getElementById('confirm-yes')).focus();
}
document.getElementById('confirm-no')?.addEventListener('click', () => {
  confirmPanel.hidden = true;
  pending = undefined;
});
document.getElementById('confirm-yes')?.addEventListener('click', async () => {
  if (pending) await pending();
});

const operate = async (request, done) => {
  const reply = await runOperation(request);
  if (reply.status !== 200) return showError(rowResult, reply);
  done(reply.body);
};

document.querySelector('#destinations')?.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (!button) return;
  const destinationId = button.dataset.destination;
  const base = { factoryId, destinationId };
  if (button.classList.contains('alert-test')) {
    showLines(rowResult, [`Sending a test to ${destinationId} …`]);
    void operate({ operation: 'alerts.test', ...base }, (body) => {
      const delivery = body.delivery;
      const answer = delivery.httpStatus !== undefined ? `HTTP ${delivery.httpStatus}` : delivery.error;
      showLines(rowResult, [`Test ${delivery.status}: ${answer}, ${delivery.latencyMs} ms.`], delivery.status === 'delivered' ? 'ok' : 'error');
    });
  } else if (button.classList.contains('alert-rotate')) {
    ask(`Rotate the secret of ${destinationId}? The previous one keeps signing for 24 hours.`, false, () =>
      operate({ operation: 'alerts.rotate', ...base }, (body) => {
        confirmPanel.hidden = true;
        showSecret(body.secret);
      }),
    );
  } else if (button.classList.contains('alert-disable')) {
    ask(`Disable ${destinationId}? No delivery is made to it until it is enabled.`, true, () =>
      operate({ operation: 'alerts.disable', ...base, reason: reason.value.trim() }, () => reloadWithFlash([`Disabled ${destinationId}.`])),
    );
  } else if (button.classList.contains('alert-enable')) {
    void operate({ operation: 'alerts.enable', ...base }, () => reloadWithFlash([`Enabled ${destinationId}.`]));
  } else if (button.classList.contains('alert-remove')) {
    ask(`Remove ${destinationId}? Its deliveries are no longer listed.`, false, () =>
      operate({ operation: 'alerts.remove', ...base }, () => reloadWithFlash([`Removed ${destinationId}.`])),
    );
  }
});

const settings = document.getElementById('alert-settings');
settings?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const request = {
    operation: 'alerts.configure',
    factoryId,
    spikeMultiple: Number(settings.elements.spikeMultiple.value),
    spikeFloor: Number(settings.elements.spikeFloor.value),
    crashFreeThreshold: Number(settings.elements.crashFreeThreshold.value),
    releaseMinSessions: Number(settings.elements.releaseMinSessions.value),
  };
  const reply = await runOperation(request);
  const result = document.getElementById('settings-result');
  if (reply.status !== 200) return showError(result, reply);
  showLines(result, [
    `Saved: a spike at ${reply.body.settings.spikeMultiple}× the hour before, at least ${reply.body.settings.spikeFloor} events in 5 minutes; a release unhealthy under ${reply.body.settings.crashFreeThreshold} crash-free after ${reply.body.settings.releaseMinSessions} sessions in its hour.`,
  ]);
});
