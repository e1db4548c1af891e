// The factory picker: factories opened before in this browser, as links and as input suggestions.
import { FACTORY_ID } from './app.js';

let recent = [];
try {
  recent = JSON.parse(localStorage.getItem('control-room-factories') ?? '[]').filter((id) => FACTORY_ID.test(id));
} catch {
  recent = [];
}
const list = document.getElementById('recent');
const options = document.getElementById('recent-factories');
if (recent.length > 0) {
  list.replaceChildren(
    ...recent.map((id) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `/f/${encodeURIComponent(id)}/contacts`;
      link.textContent = id;
      item.append(link);
      return item;
    }),
  );
  options.replaceChildren(...recent.map((id) => Object.assign(document.createElement('option'), { value: id })));
}
