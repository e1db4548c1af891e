import { ALERT_TYPES } from '../../../../lambda/alerts/alert';
import type { StoredSettings } from '../../../../lambda/alerts/settings';
import { CRASH_FREE_THRESHOLD_RANGE, RELEASE_MIN_SESSIONS_RANGE, SPIKE_FLOOR_RANGE, SPIKE_MULTIPLE_RANGE } from '../../../../lambda/alerts/settings';
import type { DeliveryView, DestinationView } from '../../../../lambda/control/alert-operations';
import { route, type Route } from '../context';
import { appLink, errorBox, text, time } from '../display';
import { html, type Html } from '../html';
import { renderPage } from '../layout';

/**
 * The alerts page (docs/alerts.md#destinations): a factory's webhook
 * destinations with their state and last delivery, adding one (its secret
 * shown once), a test, rotating, disabling with a reason, enabling,
 * removing; the spike settings; the latest deliveries. Every button is one
 * of the alerts.* operations.
 */
function lastDelivery(destination: DestinationView): Html {
  const last = destination.lastDelivery;
  if (!last) return html`<span class="muted">none yet</span>`;
  const answer = last.httpStatus !== undefined ? `HTTP ${text(last.httpStatus)}` : text(last.error);
  return html`<span class="badge ${last.status === 'delivered' ? '' : 'danger'}">${text(last.status)}</span> ${text(last.type)}${last.test ? ' (test)' : ''}, ${answer}, ${text(last.latencyMs)} ms, ${time(last.at)}`;
}

function destinationRow(destination: DestinationView): Html {
  const id = text(destination.destinationId);
  const { disabled } = destination;
  const types = Array.isArray(destination.types) ? destination.types.map(text).join(', ') : 'all';
  return html`<tr class="${disabled ? 'revoked' : ''}" data-destination="${id}">
<td><code>${id}</code>${destination.description ? html`<br><span class="muted">${text(destination.description)}</span>` : ''}</td>
<td><code class="url">${text(destination.url)}</code></td>
<td>${types}</td>
<td class="words">${disabled ? html`<strong>disabled</strong> ${time(disabled.at)} by ${text(disabled.by)}: ${text(disabled.reason)}` : destination.failingSince ? html`enabled, <span class="badge danger">failing</span> since ${time(destination.failingSince)}` : 'enabled'}</td>
<td>${lastDelivery(destination)}</td>
<td class="actions">
<button type="button" class="alert-test" data-destination="${id}">Send a test</button>
<button type="button" class="alert-rotate" data-destination="${id}">Rotate secret…</button>
${disabled ? html`<button type="button" class="alert-enable" data-destination="${id}">Enable</button>` : html`<button type="button" class="alert-disable" data-destination="${id}">Disable…</button>`}
<button type="button" class="danger alert-remove" data-destination="${id}">Remove…</button>
</td>
</tr>`;
}

/** What a delivery is about: its issue (linked), or for a release alert the release and its environment. */
function subjectCell(delivery: DeliveryView): Html {
  if (delivery.issueId === undefined) return html`${text(delivery.release)} <span class="muted">${text(delivery.environment)}</span>`;
  const id = html`<code>${text(delivery.issueId)}</code>`;
  return delivery.test ? id : appLink(['f', delivery.factoryId, 'reports', 'issues', delivery.issueId], id);
}

function deliveryRow(delivery: DeliveryView): Html {
  return html`<tr><td>${time(delivery.lastAttemptAt ?? delivery.createdAt)}</td><td class="words">${text(delivery.type)}${delivery.test ? ' (test)' : ''}</td><td>${subjectCell(delivery)}</td><td><code>${text(delivery.destinationId)}</code></td><td class="words">${text(delivery.status)}</td><td>${text(delivery.attempts)}</td><td>${delivery.httpStatus === undefined ? text(delivery.error) : `HTTP ${text(delivery.httpStatus)}`}</td><td>${delivery.latencyMs === undefined ? '' : `${text(delivery.latencyMs)} ms`}</td><td>${delivery.status === 'pending' ? time(delivery.nextAttemptAt) : text(delivery.reason)}</td></tr>`;
}

function addForm(factoryId: string): Html {
  return html`<form id="add-destination" class="card" data-factory="${factoryId}">
<h2>Add a webhook destination</h2>
<label for="destination-url">URL (https://; with npm start, http:// to this machine too)</label>
<input id="destination-url" class="wide" name="url" type="url" required placeholder="https://hooks.example.com/contacts">
<fieldset><legend>Alerts it receives (none ticked: all)</legend>
${ALERT_TYPES.map((type) => html`<label class="check"><input type="checkbox" name="types" value="${type}"> ${type}</label>`)}
</fieldset>
<label for="destination-description">Description (optional)</label>
<input id="destination-description" class="wide" name="description" maxlength="200">
<button type="submit">Add destination</button>
<div class="result" id="add-result" role="status" aria-live="polite"></div>
</form>
<div class="card secret" id="new-secret" hidden>
<h2>The signing secret</h2>
<p><strong>Copy it now: it is shown once and never again.</strong> Receivers verify each delivery with it (docs: alerts, verifying a delivery).</p>
<p><code id="secret-value" class="secret-value"></code></p>
<button type="button" id="copy-secret">Copy</button> <span id="copy-state" role="status"></span>
<p><button type="button" id="secret-done">I have stored it</button></p>
</div>`;
}

function settingsForm(factoryId: string, settings: Partial<StoredSettings>): Html {
  return html`<form id="alert-settings" class="card" data-factory="${factoryId}">
<h2>Spike rule</h2>
<p>A 5-minute bucket of an issue's events is a spike when it reaches the multiple of the issue's rate over the hour before, and never under the floor.${settings.updatedAt ? html` Last changed ${time(settings.updatedAt)} by ${text(settings.updatedBy)}.` : ' Defaults.'}</p>
<label for="spike-multiple">Multiple (${SPIKE_MULTIPLE_RANGE.min}–${SPIKE_MULTIPLE_RANGE.max})</label>
<input id="spike-multiple" name="spikeMultiple" type="number" min="${SPIKE_MULTIPLE_RANGE.min}" max="${SPIKE_MULTIPLE_RANGE.max}" value="${text(settings.spikeMultiple)}" inputmode="numeric">
<label for="spike-floor">Floor: events in 5 minutes (at least ${SPIKE_FLOOR_RANGE.min})</label>
<input id="spike-floor" name="spikeFloor" type="number" min="${SPIKE_FLOOR_RANGE.min}" max="${SPIKE_FLOOR_RANGE.max}" value="${text(settings.spikeFloor)}" inputmode="numeric">
<h2>Release rule</h2>
<p>A release's hour is unhealthy when it has at least the minimum of sessions and its share of sessions that did not crash falls below the threshold: release.unhealthy once per release and hour, release.recovered when it is back.</p>
<label for="crash-free-threshold">Crash-free threshold (a share: ${CRASH_FREE_THRESHOLD_RANGE.min}–${CRASH_FREE_THRESHOLD_RANGE.max}, 0.99 is 99 %)</label>
<input id="crash-free-threshold" name="crashFreeThreshold" type="number" step="any" min="${CRASH_FREE_THRESHOLD_RANGE.min}" max="${CRASH_FREE_THRESHOLD_RANGE.max}" value="${text(settings.crashFreeThreshold)}" inputmode="decimal">
<label for="release-min-sessions">Minimum sessions in the hour (at least ${RELEASE_MIN_SESSIONS_RANGE.min})</label>
<input id="release-min-sessions" name="releaseMinSessions" type="number" min="${RELEASE_MIN_SESSIONS_RANGE.min}" max="${RELEASE_MIN_SESSIONS_RANGE.max}" value="${text(settings.releaseMinSessions)}" inputmode="numeric">
<button type="submit">Save</button>
<div class="result" id="settings-result" role="status" aria-live="polite"></div>
</form>`;
}

export const alertRoutes: Route[] = [
  route('GET', '/f/:factoryId/alerts', async (context, { factoryId }) => {
    const [reply, log] = await Promise.all([
      context.ask({ operation: 'alerts.list', factoryId }),
      context.ask({ operation: 'alerts.deliveries', factoryId, limit: 20 }),
    ]);
    const destinations = reply.ok ? reply.body.destinations : [];
    const deliveries = log.ok ? log.body.deliveries : [];
    const list = !reply.ok
      ? errorBox(reply.status, reply.body.error)
      : destinations.length === 0
        ? html`<p class="empty">No webhook destination yet: alerts of this factory go nowhere (on AWS, the platform team's topic still gets them).</p>`
        : html`<div class="table-wrap"><table class="list" id="destinations"><thead><tr><th scope="col">Destination</th><th scope="col">URL</th><th scope="col">Alerts</th><th scope="col">State</th><th scope="col">Last delivery</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${destinations.map(destinationRow)}</tbody></table></div>`;
    const deliveryLog = !log.ok
      ? errorBox(log.status, log.body.error)
      : deliveries.length === 0
        ? html`<p class="empty">No delivery yet.</p>`
        : html`<div class="table-wrap"><table class="list" id="deliveries"><thead><tr><th scope="col">When</th><th scope="col">Alert</th><th scope="col">Issue or release</th><th scope="col">Destination</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Latency</th><th scope="col">Next attempt or why</th></tr></thead>
<tbody>${deliveries.map(deliveryRow)}</tbody></table></div>`;
    renderPage(context, reply.status, {
      title: 'Alerts',
      factoryId,
      section: 'alerts',
      scripts: ['alerts.js'],
      body: html`<h1>Alerts</h1>
<p>New issues, regressions, spikes and unhealthy releases, sent as signed webhooks (Standard Webhooks) to these destinations.</p>
<div class="result" id="row-result" role="status" aria-live="polite"></div>
${list}
<div class="confirm card" id="alert-confirm" hidden data-factory="${factoryId}">
<p id="confirm-text"></p>
<label for="confirm-reason" id="confirm-reason-label" hidden>Reason (kept with the destination)</label>
<input id="confirm-reason" maxlength="500" hidden>
<button type="button" class="danger" id="confirm-yes">Yes</button> <button type="button" id="confirm-no">Cancel</button>
</div>
${addForm(factoryId)}
${settingsForm(factoryId, reply.ok ? reply.body.settings : {})}
<h2>Latest deliveries</h2>
${deliveryLog}`,
    });
  }),
];
