// Accounts: approve registrations, revoke access.
import { api, query } from '../api.js';
import { add, h, note, table, fmtTime } from '../dom.js';
import { Form, select, submit, button, pager, describe } from '../forms.js';

const LIMIT = 50;

export async function render(view, ctx) {
  const status = ctx.params.get('status') || '';
  const offset = Math.max(0, Number(ctx.params.get('offset')) || 0);
  const form = new Form({ class: 'form inline', label: 'Filter accounts' });
  const st = select([['', 'Any'], ['pending', 'Waiting for approval'], ['approved', 'Approved'], ['revoked', 'Revoked']], status);
  add(form.el, form.field('status', 'Status', st), h('div', { class: 'actions' }, submit('Show')), form.status);
  form.onSubmit(async () => ctx.go('accounts', { status: st.value }));
  const page = await api('GET', '/accounts' + query({ status, limit: LIMIT, offset }));
  const msg = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
  const act = (a, verb) => button(verb === 'approve' ? 'Approve' : 'Revoke', {
    'aria-label': `${verb === 'approve' ? 'Approve' : 'Revoke'} ${a.email}`,
    class: verb === 'revoke' ? 'danger' : '',
    onclick: async () => {
      if (verb === 'revoke' && !window.confirm(`Revoke ${a.email}? Their sessions end at once.`)) return;
      try {
        await api('POST', `/accounts/${encodeURIComponent(a.id)}/${verb}`);
        ctx.go('accounts', { status, offset: offset || undefined, done: `${verb}:${a.id}` });
      } catch (e) { msg.textContent = describe(e); }
    },
  });
  const rows = page.items.map((a) => h('tr', { dataset: { accountId: a.id } },
    h('td', { class: 'email' }, a.email, a.id === ctx.account.id ? h('span', { class: 'tag' }, 'you') : null),
    h('td', {}, h('span', { class: 'state ' + a.status }, a.status === 'pending' ? 'waiting for approval' : a.status)),
    h('td', {}, fmtTime(a.createdAt)), h('td', {}, fmtTime(a.approvedAt)), h('td', {}, fmtTime(a.lastSignInAt)),
    h('td', {}, h('div', { class: 'row-actions' }, a.status !== 'approved' ? act(a, 'approve') : null, a.status !== 'revoked' && a.id !== ctx.account.id ? act(a, 'revoke') : null))));
  const done = ctx.params.get('done');
  add(view, h('h1', {}, 'Accounts'), form.el,
    done ? note('ok', done.startsWith('approve') ? 'Account approved.' : 'Account revoked; its sessions have ended.') : null, msg,
    page.total ? table('Accounts', ['Email', 'Status', 'Registered', 'Approved', 'Last sign-in', 'Actions'], rows) : note('info', 'No account matches.'),
    pager(page, (o) => ctx.go('accounts', { status, offset: o || undefined })));
}
