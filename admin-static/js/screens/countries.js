// Countries: searchable, the selected ones first; a change saves the whole selection at once.
import { api } from '../api.js';
import { add, h, note } from '../dom.js';
import { input, checkbox, describe } from '../forms.js';

export async function render(view, ctx) {
  const data = await api('GET', '/countries');
  const selected = new Set(data.items.filter((c) => c.selected).map((c) => c.code));
  const status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
  const search = input({ type: 'search', id: 'country-search', value: ctx.params.get('q') || '' });
  const count = h('p', { class: 'lead' });
  const list = h('ul', { class: 'country-list', 'aria-label': 'Countries' });

  const order = () => [...data.items].sort((a, b) => (selected.has(b.code) - selected.has(a.code)) || a.name.localeCompare(b.name));
  const draw = () => {
    const q = search.value.trim().toLowerCase();
    const shown = order().filter((c) => !q || c.code.toLowerCase() === q || c.name.toLowerCase().includes(q));
    count.textContent = `${selected.size} of ${data.items.length} selected. Offers are served only in selected countries.`;
    list.replaceChildren(...shown.map((c) => {
      const box = checkbox(selected.has(c.code), { id: 'country-' + c.code, value: c.code });
      box.addEventListener('change', () => save(c, box));
      return h('li', { class: selected.has(c.code) ? 'selected' : '' }, box, h('label', { for: box.id }, h('span', { class: 'code' }, c.code), ' ', c.name));
    }));
    if (!shown.length) add(list, h('li', {}, 'No country matches.'));
  };
  const save = async (c, box) => {
    const next = new Set(selected);
    if (box.checked) next.add(c.code); else next.delete(c.code);
    box.disabled = true;
    try {
      const after = await api('PUT', '/countries', { countries: [...next].sort() });
      selected.clear();
      for (const x of after.items) if (x.selected) selected.add(x.code);
      status.className = 'form-status note-ok';
      status.textContent = `${c.name} ${box.checked ? 'selected' : 'deselected'}.`;
      draw();
      const again = document.getElementById('country-' + c.code);
      if (again) again.focus();
    } catch (e) {
      box.checked = !box.checked;
      box.disabled = false;
      status.className = 'form-status note-error';
      status.textContent = describe(e);
    }
  };
  search.addEventListener('input', draw);
  add(view, h('h1', {}, 'Countries'), count,
    h('div', { class: 'field' }, h('label', { for: search.id }, 'Search by name or code'), search),
    status, selected.size === 0 ? note('info', 'No country is selected: every query answers country_not_selected.') : null, list);
  draw();
}
