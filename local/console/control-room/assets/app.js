// Every page: times in the operator's time zone (the UTC value stays in the title), the message
// kept across a reload, and the factory remembered for the picker.
for (const element of document.querySelectorAll('time[datetime]')) {
  const date = new Date(element.getAttribute('datetime'));
  if (!Number.isNaN(date.getTime())) element.textContent = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

const flash = sessionStorage.getItem('control-room-flash');
if (flash !== null) {
  sessionStorage.removeItem('control-room-flash');
  const region = document.getElementById('flash');
  try {
    const lines = JSON.parse(flash);
    region.replaceChildren(
      ...lines.map((line) => {
        const p = document.createElement('p');
        p.textContent = String(line);
        return p;
      }),
    );
    region.hidden = false;
  } catch {
    // Not ours: nothing to show.
  }
}

// What a factory id looks like: the server's own pattern (lambda/kernel/factory-id.ts), in every page's head.
export const FACTORY_ID = new RegExp(`^(?:${document.querySelector('meta[name="factory-id-pattern"]')?.content ?? 'fac_.+'})$`);
const factory = document.querySelector('.top .factory')?.textContent?.trim();
if (factory && FACTORY_ID.test(factory)) {
  let recent = [];
  try {
    recent = JSON.parse(localStorage.getItem('control-room-factories') ?? '[]');
  } catch {
    recent = [];
  }
  const next = [factory, ...recent.filter((entry) => entry !== factory)].slice(0, 10);
  localStorage.setItem('control-room-factories', JSON.stringify(next));
}
