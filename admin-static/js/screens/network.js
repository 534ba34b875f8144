// Affiliate networks: credentials (never shown back), the sync with live progress, its history,
// the category mapping.
import { api, all, optional, query } from '../api.js';
import { add, clear, h, note, table, fmtTime } from '../dom.js';
import { Form, input, select, submit, button, pager, describe } from '../forms.js';

const NAMES = { admitad: 'Admitad', awin: 'Awin' };
const CRED_FIELDS = {
  admitad: [['clientId', 'Client id', 'text'], ['clientSecret', 'Client secret', 'password'], ['websiteId', 'Website id', 'text']],
  awin: [['publisherId', 'Publisher id', 'text'], ['apiToken', 'API token', 'password']],
};
const MAP_LIMIT = 50;

export async function render(view, ctx) {
  add(view, h('h1', {}, 'Network'));
  const net = await optional('/network');
  if (!net) {
    add(view, note('info', 'Network import is not available on this server.'));
    return;
  }
  const history = await historySection();
  const cards = h('div', { class: 'grid two' });
  for (const n of net.networks) add(cards, networkCard(n, ctx, history));
  add(view, cards, history.el, await mappingSection(ctx));
}

// The newest runs, as a table that a finished sync refreshes in place. available: false when the
// server has no sync API (GET /network/syncs answers 404).
async function historySection() {
  const el = h('section', { class: 'card wide', 'aria-labelledby': 'sh-h' }, h('h2', { id: 'sh-h' }, 'Sync history'));
  const body = h('div', { class: 'sync-history' });
  add(el, body);
  const fill = (syncs) => {
    if (syncs === null) clear(body).append(note('info', 'Syncing from the admin page is not available on this server (placardctl sync is the way).'));
    else if (!syncs.items.length) clear(body).append(note('info', 'No sync has run yet.'));
    else clear(body).append(table('Sync runs, newest first', ['Network', 'Status', 'Started', 'Finished', 'Pages', 'Created', 'Updated', 'Disabled', 'Skipped', 'Error'],
      syncs.items.map((r) => h('tr', { dataset: { run: r.id } }, h('td', {}, NAMES[r.network] || r.network), h('td', {}, r.status), h('td', {}, fmtTime(r.startedAt)), h('td', {}, fmtTime(r.finishedAt)),
        h('td', {}, `${r.pagesDone ?? 0} / ${r.pagesTotal ?? '?'}`), h('td', { class: 'num' }, String(r.created ?? 0)), h('td', { class: 'num' }, String(r.updated ?? 0)),
        h('td', { class: 'num' }, String(r.disabled ?? 0)), h('td', { class: 'num' }, String(r.skipped ?? 0)), h('td', {}, r.error || '—')))));
  };
  const load = () => optional('/network/syncs' + query({ limit: 10 }));
  const syncs = await load();
  fill(syncs);
  return { el, available: syncs !== null, refresh: async () => fill(await load()) };
}

function lastSyncText(r) {
  return r ? `${r.status}, ${fmtTime(r.startedAt)}${r.error ? ' — ' + r.error : ''}` : 'never';
}

function networkCard(n, ctx, history) {
  const name = NAMES[n.network] || n.network;
  const card = h('section', { class: 'card', 'aria-labelledby': 'nw-' + n.network }, h('h2', { id: 'nw-' + n.network }, name));
  add(card, h('p', { class: 'cred-state', dataset: { network: n.network } },
    n.credentialsSet ? `Credentials set on ${fmtTime(n.credentialsUpdatedAt)}.` : 'No credentials set.'));
  const last = h('span', {}, lastSyncText(n.lastSync));
  add(card, h('p', {}, 'Last sync: ', last));

  const form = new Form({ label: `${name} credentials` });
  const inputs = {};
  for (const [k, label, type] of CRED_FIELDS[n.network] || []) {
    inputs[k] = input({ type, autocomplete: 'off', required: true, spellcheck: 'false' });
    add(form.el, form.field(k, label, inputs[k]));
  }
  add(form.el, h('p', { class: 'hint' }, n.credentialsSet ? 'Stored values are never shown. Saving replaces all of them.' : 'Stored encrypted; never shown again.'),
    h('div', { class: 'actions' }, submit(n.credentialsSet ? 'Replace credentials' : 'Save credentials'),
      n.credentialsSet ? button('Remove credentials', { class: 'danger', onclick: async () => {
        if (!window.confirm(`Remove the ${name} credentials?`)) return;
        try { await api('DELETE', '/network/credentials/' + n.network); ctx.go('network', { removed: n.network }); } catch (e) { form.showError(e); }
      } }) : null), form.status);
  form.onSubmit(async () => {
    const body = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value]));
    await api('PUT', '/network/credentials/' + n.network, body);
    for (const el of Object.values(inputs)) el.value = '';
    ctx.go('network', { saved: n.network });
  });
  add(card, form.el);
  if (history.available) add(card, syncControl(n, name, ctx, history, last));
  return card;
}

// One sentence for a run: where it is, what it did, or why it failed (the server's words, as text).
function runSentence(run) {
  const pages = `page ${run.pagesDone ?? 0} of ${run.pagesTotal ?? '?'}`;
  if (run.status === 'running') return `Running: ${pages}.`;
  if (run.status === 'succeeded') {
    return `Succeeded: ${pages}; created ${run.created ?? 0}, updated ${run.updated ?? 0}, disabled ${run.disabled ?? 0}, skipped ${run.skipped ?? 0}.`;
  }
  return `Failed at ${pages}: ${run.error || 'no reason given'}`;
}

// The sync button and its live progress: POST /network/sync, then GET /network/sync/{id} every
// second while the run is running (also for a run already running when the screen opens).
function syncControl(n, name, ctx, history, last) {
  const progress = h('progress', { max: 1, value: 0, 'aria-label': `${name} sync progress`, hidden: true });
  const line = h('p', { class: 'form-status sync-state', role: 'status', 'aria-live': 'polite', dataset: { network: n.network } });
  const start = button(`Sync ${name} now`, { class: 'primary', disabled: !n.credentialsSet });
  const show = (run) => {
    progress.hidden = false;
    if (run.pagesTotal) {
      progress.max = run.pagesTotal;
      progress.value = Math.min(run.pagesDone || 0, run.pagesTotal);
    } else {
      progress.removeAttribute('value'); // not known before the first page: indeterminate
    }
    Object.assign(line.dataset, { run: run.id, status: run.status, pagesDone: String(run.pagesDone ?? 0), pagesTotal: run.pagesTotal == null ? '' : String(run.pagesTotal) });
    line.textContent = runSentence(run);
    last.textContent = lastSyncText(run);
  };
  const follow = async (first) => {
    start.disabled = true;
    let run = first;
    try {
      show(run);
      while (run.status === 'running') {
        await new Promise((r) => setTimeout(r, 1000));
        if (ctx.stale() || !line.isConnected) return;
        run = await api('GET', '/network/sync/' + encodeURIComponent(run.id));
        show(run);
      }
      await history.refresh();
    } catch (e) {
      line.textContent = describe(e);
    } finally {
      start.disabled = !n.credentialsSet;
    }
  };
  start.addEventListener('click', async () => {
    start.disabled = true;
    let run;
    try {
      run = await api('POST', '/network/sync', { network: n.network });
    } catch (e) {
      line.textContent = describe(e);
      start.disabled = false;
      return;
    }
    await follow(run);
  });
  if (n.lastSync && n.lastSync.status === 'running') follow(n.lastSync);
  return h('div', { class: 'sync' }, start, progress, line);
}

async function mappingSection(ctx) {
  const sec = h('section', { class: 'card wide', 'aria-labelledby': 'map-h' }, h('h2', { id: 'map-h' }, 'Category mapping'));
  const network = ctx.params.get('map') || 'admitad';
  const offset = Math.max(0, Number(ctx.params.get('mapOffset')) || 0);
  const pick = new Form({ class: 'form inline', label: 'Network of the mapping' });
  const sel = select(Object.entries(NAMES), network);
  add(pick.el, pick.field('network', 'Network', sel), h('div', { class: 'actions' }, submit('Show')));
  pick.onSubmit(async () => ctx.go('network', { map: sel.value }));
  add(sec, h('p', { class: 'lead' }, 'Offers in a network category without a mapping are imported but not served.'), pick.el);
  let page;
  try {
    page = await api('GET', '/network/category-map' + query({ network, limit: MAP_LIMIT, offset }));
  } catch (e) {
    if (e.status === 404) { add(sec, note('info', 'The category mapping is not available on this server.')); return sec; }
    throw e;
  }
  if (!page.items.length && offset === 0) { add(sec, note('info', 'No categories seen yet: a sync adds the network\'s categories here.')); return sec; }
  const cats = await all('/categories');
  const options = [['', '(not mapped)'], ...cats.map((c) => [c.path, `${c.path} — ${c.name}`])];
  const rows = page.items.map((m) => {
    const s = select(options, m.category ?? '', { 'aria-label': `Placard category for ${m.name || m.externalCategoryId}` });
    const st = h('span', { class: 'row-status', role: 'status' });
    s.addEventListener('change', async () => {
      try {
        const after = await api('PUT', `/network/category-map/${encodeURIComponent(m.network)}/${encodeURIComponent(m.externalCategoryId)}`, { category: s.value || null });
        st.textContent = after.category ? 'Saved.' : 'Unmapped.';
      } catch (e) { st.textContent = describe(e); }
    });
    return h('tr', {}, h('td', {}, m.name || '—'), h('td', {}, m.externalCategoryId), h('td', {}, s, ' ', st));
  });
  add(sec, table(`${NAMES[network]} categories`, ['Network category', 'Id', 'Placard category'], rows),
    pager(page, (o) => ctx.go('network', { map: network, mapOffset: o || undefined })));
  return sec;
}
