import { KEY_RATE_LIMIT_MAX } from '../../../../lambda/control/key-operations';
import type { KeyView } from '../../../../lambda/control/ports';
import { route, type Route } from '../context';
import { errorBox, text, time } from '../display';
import { html, type Html } from '../html';
import { renderPage } from '../layout';

function exposedCell(key: KeyView): Html {
  const { exposed } = key;
  if (!exposed) return html`<span class="muted">no</span>`;
  return html`<span class="badge danger">exposed</span> seen ${text(exposed.count)}× at the ingest API, last ${time(exposed.lastSeenAt)}: rotate it`;
}

/** What the key's SDKs said they discarded lately (client reports), under its rate limit: what the limit cost. */
function discardedNote(key: KeyView): Html | string {
  const { discarded } = key;
  if (!discarded || discarded.counts.length === 0) return '';
  const parts = discarded.counts.map(({ reason, category, quantity }) => html`<li>${text(quantity)} ${text(category)} (${text(reason)})</li>`);
  return html`<div class="muted discarded">the SDKs discarded, last ${text(discarded.days)} days:<ul class="plain">${parts}</ul></div>`;
}

function keyRow(key: KeyView): Html {
  const revoked = key.status === 'revoked';
  const origins = Array.isArray(key.origins) ? key.origins.map(text) : [];
  return html`<tr class="${key.exposed && !revoked ? 'exposed' : ''}${revoked ? ' revoked' : ''}" data-key-id="${text(key.keyId)}">
<td><code>${text(key.keyId)}</code></td>
<td class="words">${text(key.type)}</td>
<td><code>${text(key.hint)}</code></td>
<td class="words">${revoked ? html`revoked ${time(key.revokedAt)}` : 'active'}</td>
<td>${text(key.rateLimit)}/min${discardedNote(key)}</td>
<td class="words">${origins.length === 0 ? html`<span class="muted">—</span>` : html`<ul class="plain">${origins.map((origin) => html`<li>${origin}</li>`)}</ul>`}</td>
<td>${time(key.createdAt)}</td>
<td>${time(key.lastUsedAt)}</td>
<td>${exposedCell(key)}</td>
<td>${revoked ? '' : html`<button type="button" class="danger revoke" data-key-id="${text(key.keyId)}" data-hint="${text(key.hint)}">Revoke…</button>`}</td>
</tr>`;
}

function createForm(factoryId: string): Html {
  return html`<form id="create-key" class="card" data-factory="${factoryId}">
<h2>Create a key</h2>
<fieldset><legend>Type</legend>
<label class="check"><input type="radio" name="type" value="secret" checked> secret (server to server, dfsk_…)</label>
<label class="check"><input type="radio" name="type" value="publishable"> publishable (web pages, dfpk_…, bound to origins)</label>
</fieldset>
<label for="key-origins">Origins (publishable keys; one per line)</label>
<textarea id="key-origins" name="origins" rows="2" placeholder="https://app.example.com"></textarea>
<label for="key-rate">Requests per minute (empty: the default)</label>
<input id="key-rate" name="rateLimit" type="number" min="1" max="${KEY_RATE_LIMIT_MAX}" inputmode="numeric">
<button type="submit">Create key</button>
<div class="result" id="create-result" role="status" aria-live="polite"></div>
</form>
<div class="card secret" id="new-secret" hidden>
<h2>The new key</h2>
<p><strong>Copy it now: it is shown once and never again.</strong></p>
<p><code id="secret-value" class="secret-value"></code></p>
<button type="button" id="copy-secret">Copy</button> <span id="copy-state" role="status"></span>
<p><button type="button" id="secret-done">I have stored it</button></p>
</div>`;
}

export const keyRoutes: Route[] = [
  route('GET', '/f/:factoryId/keys', async (context, { factoryId }) => {
    const reply = await context.ask({ operation: 'keys.list', factoryId });
    const keys = reply.ok ? reply.body.keys : [];
    const exposed = keys.filter((key) => key.exposed && key.status !== 'revoked').length;
    const list = !reply.ok
      ? errorBox(reply.status, reply.body.error)
      : keys.length === 0
        ? html`<p class="empty">No key was ever issued for ${factoryId}, so nothing is stored for it: if it is a new factory, issue its first key below; if not, check the id in the address (<a href="/">choose a factory</a>).</p>`
        : html`${exposed > 0 ? html`<p class="error" role="alert">${exposed} active secret key${exposed > 1 ? 's were' : ' was'} seen at the ingest API (in a web page): revoke and replace ${exposed > 1 ? 'them' : 'it'}.</p>` : ''}
<div class="table-wrap"><table class="list" id="keys"><thead><tr><th scope="col">Key id</th><th scope="col">Type</th><th scope="col">Hint</th><th scope="col">Status</th><th scope="col">Rate limit</th><th scope="col">Origins</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Exposed</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map(keyRow)}</tbody></table></div>`;
    renderPage(context, reply.status, {
      title: 'Keys',
      factoryId,
      section: 'keys',
      scripts: ['keys.js'],
      body: html`<h1>Keys</h1>${list}
<div class="confirm card" id="revoke-confirm" hidden data-factory="${factoryId}">
<p id="revoke-text"></p>
<button type="button" class="danger" id="revoke-yes">Yes, revoke</button> <button type="button" id="revoke-no">Cancel</button>
<div class="result" id="revoke-result" role="status" aria-live="polite"></div>
</div>
${createForm(factoryId)}`,
    });
  }),
];
