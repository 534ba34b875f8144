// Offers: search, filters, pagination, quick enable/disable; edit and create on their own screens.
import { api, all, query } from '../api.js';
import { add, h, note, table, fmtDate } from '../dom.js';
import { Form, input, select, checkbox, submit, pager, describe } from '../forms.js';

const LIMIT = 25;
const FILTERS = ['q', 'category', 'country', 'network', 'enabled', 'isDemo', 'served'];
const YESNO = [['', 'Any'], ['true', 'Yes'], ['false', 'No']];

export async function render(view, ctx) {
  const p = Object.fromEntries(FILTERS.map((k) => [k, ctx.params.get(k) || '']));
  const offset = Math.max(0, Number(ctx.params.get('offset')) || 0);
  const categories = await all('/categories');

  const form = new Form({ class: 'form filters', label: 'Search offers' });
  const q = input({ type: 'search', value: p.q, maxlength: 200 });
  const cat = select([['', 'Any'], ...categories.map((c) => [c.path, `${c.path} — ${c.name}`])], p.category);
  const country = input({ value: p.country, maxlength: 2, size: 3, autocapitalize: 'characters', pattern: '[A-Za-z]{2}' });
  const network = select([['', 'Any'], ['manual', 'Manual'], ['admitad', 'Admitad'], ['awin', 'Awin']], p.network);
  const enabled = select(YESNO, p.enabled);
  const demo = select(YESNO, p.isDemo);
  const served = select(YESNO, p.served);
  add(form.el, 
    form.field('q', 'Title or merchant', q), form.field('category', 'Category', cat), form.field('country', 'Country', country),
    form.field('network', 'Network', network), form.field('enabled', 'Enabled', enabled), form.field('isDemo', 'Demonstration', demo),
    form.field('served', 'Served now', served), h('div', { class: 'actions' }, submit('Search')), form.status);
  form.onSubmit(async () => ctx.go('offers', { q: q.value.trim(), category: cat.value, country: country.value.toUpperCase(), network: network.value, enabled: enabled.value, isDemo: demo.value, served: served.value }));

  add(view, h('div', { class: 'title-row' }, h('h1', {}, 'Offers'), h('a', { class: 'button', href: '#/offer-new' }, 'New offer')), form.el);
  let page;
  try {
    page = await api('GET', '/offers' + query({ ...p, limit: LIMIT, offset }));
  } catch (e) {
    if (e.status === 400) { form.showError(e); return; }
    throw e;
  }
  const back = location.hash;
  const rows = page.items.map((o) => {
    const status = h('span', { class: 'row-status', role: 'status' });
    const toggle = checkbox(o.enabled, { 'aria-label': `Enabled: ${o.title}` });
    toggle.addEventListener('change', async () => {
      toggle.disabled = true;
      try {
        const after = await api('PATCH', '/offers/' + o.id, { enabled: toggle.checked });
        toggle.checked = after.enabled;
        status.textContent = after.enabled ? 'Enabled' : 'Disabled';
      } catch (e) {
        toggle.checked = !toggle.checked;
        status.textContent = describe(e);
      } finally {
        toggle.disabled = false;
      }
    });
    return h('tr', { dataset: { offerId: o.id } },
      h('td', {}, o.id),
      h('td', {}, h('a', { href: '#/offer' + query({ id: o.id, back }), class: 'offer-title' }, o.title), o.isDemo ? h('span', { class: 'tag' }, 'demo') : null, o.merchant ? h('div', { class: 'sub' }, o.merchant) : null),
      h('td', {}, o.category ?? 'not mapped'),
      h('td', {}, o.network, o.overrides.length ? h('div', { class: 'sub' }, 'overrides: ' + o.overrides.join(', ')) : null),
      h('td', { class: 'num' }, String(o.priority)),
      h('td', {}, o.validFrom || o.validUntil ? `${fmtDate(o.validFrom)} → ${fmtDate(o.validUntil)}` : 'always'),
      h('td', {}, o.allCountries ? 'all selected' : o.countries.length > 6 ? `${o.countries.slice(0, 6).join(' ')} +${o.countries.length - 6}` : o.countries.join(' ') || '—'),
      h('td', {}, toggle, status));
  });
  add(view, 
    page.total === 0 ? note('info', 'No offer matches.') : table('Offers', ['Id', 'Title', 'Category', 'Network', 'Priority', 'Valid', 'Countries', 'Enabled'], rows),
    pager(page, (o) => ctx.go('offers', { ...p, offset: o || undefined })));
}
