// Placements: where the extension shows offers, and how many at most.
import { api, query } from '../api.js';
import { add, h, note, table } from '../dom.js';
import { Form, input, checkbox, submit, button, pager, describe } from '../forms.js';

const LIMIT = 50;

export async function render(view, ctx) {
  const offset = Math.max(0, Number(ctx.params.get('offset')) || 0);
  const page = await api('GET', '/placements' + query({ limit: LIMIT, offset }));
  const rows = page.items.map((p) => {
    const status = h('span', { class: 'row-status', role: 'status' });
    const max = input({ type: 'number', min: 1, max: 20, step: 1, value: String(p.maxOffers), 'aria-label': `Most offers for ${p.name}`, class: 'short' });
    const en = checkbox(p.enabled, { 'aria-label': `Enabled: ${p.name}` });
    const save = button('Save', { 'aria-label': `Save ${p.name}`, onclick: async () => {
      try {
        const after = await api('PATCH', '/placements/' + encodeURIComponent(p.name), { maxOffers: Number(max.value), enabled: en.checked });
        status.textContent = `Saved (${after.maxOffers}, ${after.enabled ? 'enabled' : 'disabled'}).`;
      } catch (e) { status.textContent = describe(e); }
    } });
    const del = button('Delete', { 'aria-label': `Delete ${p.name}`, onclick: async () => {
      if (!window.confirm(`Delete the placement ${p.name}? Queries naming it will be refused.`)) return;
      try { await api('DELETE', '/placements/' + encodeURIComponent(p.name)); ctx.go('placements', { deleted: p.name }); } catch (e) { status.textContent = describe(e); }
    } });
    return h('tr', {}, h('td', {}, p.name), h('td', {}, max), h('td', {}, en), h('td', {}, h('div', { class: 'row-actions' }, save, del, status)));
  });
  const form = new Form({ label: 'New placement' });
  const name = input({ required: true, pattern: '[a-z0-9][a-z0-9_-]{0,63}' });
  const max = input({ type: 'number', min: 1, max: 20, step: 1, value: '6' });
  const en = checkbox(true);
  add(form.el, form.field('name', 'Name', name, 'Lower case letters, digits, - and _; e.g. popup-main.'), form.field('maxOffers', 'Most offers per query', max),
    form.field('enabled', 'Enabled', en), h('div', { class: 'actions' }, submit('Create placement')), form.status);
  form.onSubmit(async () => {
    await api('POST', '/placements', { name: name.value.trim(), maxOffers: Number(max.value), enabled: en.checked });
    ctx.go('placements', { created: name.value.trim() });
  });
  const done = ctx.params.get('created') || ctx.params.get('deleted');
  add(view, h('h1', {}, 'Placements'),
    done ? note('ok', `${ctx.params.get('deleted') ? 'Deleted' : 'Created'}: ${done}`) : null,
    page.total ? table('Placements', ['Name', 'Most offers', 'Enabled', 'Actions'], rows) : note('info', 'No placements yet.'),
    pager(page, (o) => ctx.go('placements', { offset: o || undefined })),
    h('section', { class: 'card narrow', 'aria-labelledby': 'pn-h' }, h('h2', { id: 'pn-h' }, 'New placement'), form.el));
}
