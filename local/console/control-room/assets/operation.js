// Calls one control-room operation: POST /api/operation with the page's CSRF token.
// Answers {status, body}; body.error holds the operation's own words when status is not 200.
export async function runOperation(request) {
  const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
  let response;
  try {
    response = await fetch('/api/operation', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
      body: JSON.stringify(request),
    });
  } catch (error) {
    return { status: 0, body: { error: `the control room did not answer: ${error.message}` } };
  }
  let body;
  try {
    body = await response.json();
  } catch {
    body = { error: `the control room answered ${response.status} without JSON` };
  }
  return { status: response.status, body };
}

// Shows lines in an element, as text only (nothing an operation answers is ever parsed as markup).
export function showLines(element, lines, kind = 'ok') {
  element.replaceChildren(
    ...lines.map((line) => {
      const p = document.createElement('p');
      p.textContent = line;
      return p;
    }),
  );
  element.dataset.kind = kind;
}

export function showError(element, reply) {
  showLines(element, [`${reply.status === 0 ? 'No answer' : `Error ${reply.status}`}: ${reply.body.error ?? 'unknown error'}`], 'error');
}

// Keeps lines to show after a reload (the page then shows what the store holds now).
export function reloadWithFlash(lines) {
  sessionStorage.setItem('control-room-flash', JSON.stringify(lines));
  location.reload();
}

export const list = (values) => (values && values.length > 0 ? values.join(', ') : 'none');

// The copy button of a secret shown once (a key's, a webhook's): `what` names it in the fallback's advice.
export function offerCopy(what) {
  document.getElementById('copy-secret')?.addEventListener('click', async () => {
    const state = document.getElementById('copy-state');
    try {
      await navigator.clipboard.writeText(document.getElementById('secret-value').textContent);
      state.textContent = 'Copied.';
    } catch {
      state.textContent = `Copying is not allowed here: select the ${what} and copy it by hand.`;
    }
  });
}
