import { reloadWithFlash, runOperation, showError } from './operation.js';

// Resolve, ignore or reopen the issue on this page: the operation's answer, then the page as the store now holds it.
const box = document.getElementById('issue-actions');
for (const button of document.querySelectorAll('button.issue-status')) {
  button.addEventListener('click', async () => {
    for (const other of document.querySelectorAll('button.issue-status')) other.disabled = true;
    const reply = await runOperation({ operation: button.dataset.operation, factoryId: box.dataset.factory, issueId: box.dataset.issue });
    if (reply.status !== 200) {
      for (const other of document.querySelectorAll('button.issue-status')) other.disabled = false;
      showError(document.getElementById('issue-result'), reply);
      return;
    }
    reloadWithFlash([`Issue ${reply.body.issue.issueId} was ${reply.body.previousStatus}, is now ${reply.body.issue.status}.`]);
  });
}
// Wired: the buttons come disabled from the server so that a click before this script ran is never lost.
for (const button of document.querySelectorAll('button.issue-status')) button.disabled = false;
