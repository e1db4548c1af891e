import { runOperation, showError, showLines } from './operation.js';

// A bulk run, one page per call: the bar follows the run's cursor, the page stays usable, and
// stopping between calls is safe (passes done are never billed again).
const section = document.getElementById('bulk');
const start = document.getElementById('bulk-start');
const stop = document.getElementById('bulk-stop');
const bar = document.getElementById('bulk-bar');
const percent = document.getElementById('bulk-percent');
const counts = document.getElementById('bulk-counts');
const summary = document.getElementById('bulk-summary');
let stopping = false;

const KEYS = ['seen', 'skipped', 'enriched', 'complete', 'misses', 'billed'];
const describe = (total) => KEYS.map((key) => `${total[key]} ${key}`).join(', ');

start?.addEventListener('click', async () => {
  const total = Object.fromEntries(KEYS.map((key) => [key, 0]));
  const started = performance.now();
  stopping = false;
  start.disabled = true;
  stop.hidden = false;
  document.getElementById('bulk-progress').hidden = false;
  showLines(summary, []);
  let cursor;
  for (;;) {
    const reply = await runOperation({ operation: 'enrichment.bulk', factoryId: section.dataset.factory, pages: 1, ...(cursor ? { cursor } : {}) });
    if (reply.status !== 200) {
      showError(summary, reply);
      break;
    }
    for (const key of KEYS) total[key] += reply.body.summary?.[key] ?? 0;
    bar.value = reply.body.progress ?? 0;
    percent.textContent = `${Math.round((reply.body.progress ?? 0) * 100)} %`;
    counts.textContent = describe(total);
    if (reply.body.done) {
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      showLines(summary, [`Done in ${seconds} s.`, `${describe(total)}.`], 'ok');
      summary.dataset.done = 'true';
      break;
    }
    cursor = reply.body.cursor;
    if (stopping) {
      showLines(summary, [`Stopped: ${describe(total)}. Start again to go on (contacts done are passed over).`]);
      break;
    }
  }
  start.disabled = false;
  stop.hidden = true;
  stop.textContent = 'Stop after this page';
});

stop?.addEventListener('click', () => {
  // Takes effect between two calls: the page in progress is finished first.
  stopping = true;
  stop.textContent = 'Stopping after this page …';
});
