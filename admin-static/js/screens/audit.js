// The audit log: who changed what, with the object before and after side by side.
import { api, query } from '../api.js';
import { add, h, note, table, fmtTime } from '../dom.js';
import { Form, input, submit, button, pager } from '../forms.js';

const LIMIT = 50;
const FILTERS = ['account', 'resource', 'action', 'from', 'to'];

function changedKeys(before, after) {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

function pretty(v) {
  return v === null || v === undefined ? '(nothing)' : JSON.stringify(v, null, 2);
}

export async function render(view, ctx) {
  const p = Object.fromEntries(FILTERS.map((k) => [k, ctx.params.get(k) || '']));
  const offset = Math.max(0, Number(ctx.params.get('offset')) || 0);
  const form = new Form({ class: 'form filters', label: 'Filter the audit log' });
  const fields = {
    account: input({ value: p.account, inputmode: 'numeric' }),
    resource: input({ value: p.resource, placeholder: 'offer or offer:1042' }),
    action: input({ value: p.action, placeholder: 'offer.update' }),
    from: input({ type: 'date', value: p.from }),
    to: input({ type: 'date', value: p.to }),
  };
  add(form.el, form.field('account', 'Account id', fields.account), form.field('resource', 'Resource', fields.resource),
    form.field('action', 'Action', fields.action), form.field('from', 'From (UTC day)', fields.from), form.field('to', 'To (UTC day)', fields.to),
    h('div', { class: 'actions' }, submit('Show')), form.status);
  form.onSubmit(async () => ctx.go('audit', Object.fromEntries(FILTERS.map((k) => [k, fields[k].value.trim()]))));
  add(view, h('h1', {}, 'Audit log'), form.el);
  let page;
  try {
    page = await api('GET', '/audit' + query({ ...p, limit: LIMIT, offset }));
  } catch (e) {
    if (e.status === 400) { form.showError(e); return; }
    throw e;
  }
  const rows = [];
  for (const a of page.items) {
    const detailsId = 'audit-' + a.id;
    const changed = changedKeys(a.before, a.after);
    const detail = h('tr', { class: 'detail', id: detailsId, hidden: true },
      h('td', { colspan: 5 },
        changed.length ? h('p', {}, 'Changed: ', changed.join(', ')) : null,
        h('div', { class: 'side-by-side' },
          h('figure', {}, h('figcaption', {}, 'Before'), h('pre', { tabindex: '0' }, pretty(a.before))),
          h('figure', {}, h('figcaption', {}, 'After'), h('pre', { tabindex: '0' }, pretty(a.after))))));
    const label = (verb) => `${verb} before and after of entry ${a.id}`;
    const toggle = button('Show', { 'aria-expanded': 'false', 'aria-controls': detailsId, 'aria-label': label('Show') });
    toggle.addEventListener('click', () => {
      const open = detail.hidden;
      detail.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.textContent = open ? 'Hide' : 'Show';
      toggle.setAttribute('aria-label', label(open ? 'Hide' : 'Show'));
    });
    rows.push(h('tr', {}, h('td', {}, fmtTime(a.at)), h('td', { class: 'email' }, a.account ? a.account.email : '—'),
      h('td', {}, a.action), h('td', {}, a.resource), h('td', {}, toggle)), detail);
  }
  add(view, page.total ? table('Audit entries, newest first', ['Time', 'Account', 'Action', 'Resource', 'Before / after'], rows) : note('info', 'No entry matches.'),
    pager(page, (o) => ctx.go('audit', { ...p, offset: o || undefined })));
}
