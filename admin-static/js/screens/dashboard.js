// Impressions, clicks and CTR over time (uPlot), CTR per placement, top offers, last sync, and
// when the background work last ran.
import { api, optional, query, statsUrl } from '../api.js';
import { add, h, note, table, fmtInt, fmtPct, fmtTime } from '../dom.js';
import { Form, input, submit } from '../forms.js';

// Whole numbers only on the count axis.
const COUNT_STEPS = [1, 2, 5].flatMap((m) => [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8].map((p) => m * p)).sort((a, b) => a - b);

function isoDay(d) {
  return d.toISOString().slice(0, 10);
}

export async function render(view, ctx) {
  const today = new Date();
  const monthAgo = new Date(today.getTime() - 29 * 86400000);
  const from = ctx.params.get('from') || isoDay(monthAgo);
  const to = ctx.params.get('to') || isoDay(today);

  const form = new Form({ class: 'form inline', label: 'Date range' });
  const fromIn = input({ type: 'date', value: from, required: true });
  const toIn = input({ type: 'date', value: to, required: true });
  add(form.el, form.field('from', 'From (UTC day)', fromIn), form.field('to', 'To (UTC day)', toIn),
    h('div', { class: 'actions' }, submit('Show')), form.status);
  form.onSubmit(async () => ctx.go('dashboard', { from: fromIn.value, to: toIn.value }));

  const chartBox = h('section', { class: 'card wide', 'aria-labelledby': 'chart-h' }, h('h2', { id: 'chart-h' }, 'Impressions, clicks and click-through rate per day'));
  const perPlacement = h('section', { class: 'card', 'aria-labelledby': 'pl-h' }, h('h2', { id: 'pl-h' }, 'CTR per placement'));
  const topOffers = h('section', { class: 'card wide', 'aria-labelledby': 'to-h' }, h('h2', { id: 'to-h' }, 'Top offers'));
  const sync = h('section', { class: 'card', 'aria-labelledby': 'sy-h' }, h('h2', { id: 'sy-h' }, 'Last sync'));
  const background = h('section', { class: 'card', 'aria-labelledby': 'bg-h', id: 'background-work' }, h('h2', { id: 'bg-h' }, 'Background work'));
  add(view, h('h1', {}, 'Dashboard'), form.el, h('div', { class: 'grid' }, chartBox, perPlacement, sync, background, topOffers));

  const range = { from, to };
  let days;
  try {
    days = await api('GET', '/stats' + query({ ...range, groupBy: 'day' }));
  } catch (e) {
    if (e.status === 404 && e.code !== 'invalid_field') {
      const na = 'Statistics are not available on this server.';
      add(chartBox, note('info', na));
      add(perPlacement, note('info', na));
      add(topOffers, note('info', na));
      days = null;
    } else {
      form.showError(e);
      days = null;
    }
  }
  const work = [renderSync(sync), renderBackground(background)];
  if (days) {
    work.push(renderChart(chartBox, days, range));
    work.push(renderPlacements(perPlacement, range));
    work.push(renderTopOffers(topOffers, range));
  }
  await Promise.all(work);
}

async function renderChart(box, stats, range) {
  const t = stats.totals || {};
  add(box, h('dl', { class: 'totals' },
    h('div', {}, h('dt', {}, 'Impressions'), h('dd', { 'data-total': 'impressions' }, fmtInt(t.impressions))),
    h('div', {}, h('dt', {}, 'Clicks'), h('dd', { 'data-total': 'clicks' }, fmtInt(t.clicks))),
    h('div', {}, h('dt', {}, 'Click-through rate'), h('dd', { 'data-total': 'ctr' }, fmtPct(t.ctr)))));
  const rows = stats.rows || [];
  const xs = rows.map((r) => Date.parse(r.key + 'T00:00:00Z') / 1000);
  const imp = rows.map((r) => r.impressions);
  const clk = rows.map((r) => r.clicks);
  const ctr = rows.map((r) => Math.round(r.ctr * 10000) / 100);
  // The numbers drawn, as data attributes (tests read them; no inline script under the CSP).
  const chart = h('figure', {
    class: 'chart', id: 'traffic-chart',
    dataset: { days: JSON.stringify(rows.map((r) => r.key)), impressions: JSON.stringify(imp), clicks: JSON.stringify(clk), ctr: JSON.stringify(ctr) },
  });
  const csv = h('a', { href: statsUrl({ ...range, groupBy: 'day', format: 'csv' }), download: `placard-stats-${range.from}-${range.to}.csv` }, 'Download as CSV');
  const dayTable = h('details', {}, h('summary', {}, 'The same numbers as a table'),
    table('Per day', ['Day', 'Impressions', 'Clicks', 'CTR'], rows.map((r) => h('tr', {}, h('td', {}, r.key), h('td', { class: 'num' }, fmtInt(r.impressions)), h('td', { class: 'num' }, fmtInt(r.clicks)), h('td', { class: 'num' }, fmtPct(r.ctr))))));
  add(box, chart, h('p', {}, csv), dayTable);
  try {
    const { default: uPlot } = await import('../../vendor/uPlot.esm.js');
    const width = () => Math.max(280, chart.clientWidth || 600);
    const plot = new uPlot({
      width: width(), height: 260,
      title: '',
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (u, min, max) => [0, Math.max(5, max)] }, ctr: { range: (u, min, max) => [0, Math.max(1, max)] } },
      series: [
        { label: 'Day' },
        { label: 'Impressions', stroke: '#1f5fbf', width: 2, value: (u, v) => (v == null ? '—' : fmtInt(v)) },
        { label: 'Clicks', stroke: '#b5470b', width: 2, value: (u, v) => (v == null ? '—' : fmtInt(v)) },
        { label: 'CTR %', stroke: '#2c7a3f', width: 2, dash: [6, 4], scale: 'ctr', value: (u, v) => (v == null ? '—' : v.toFixed(2) + ' %') },
      ],
      axes: [{ space: 70, incrs: [86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400, 91 * 86400], values: (u, splits) => splits.map((t) => new Date(t * 1000).toISOString().slice(5, 10)) },
        { label: 'Count', incrs: COUNT_STEPS }, { scale: 'ctr', side: 1, label: 'CTR %', grid: { show: false } }],
    }, [xs, imp, clk, ctr], chart);
    chart.setAttribute('aria-label', `Chart of ${rows.length} days: ${fmtInt(stats.totals.impressions)} impressions, ${fmtInt(stats.totals.clicks)} clicks`);
    chart.setAttribute('role', 'img');
    chart.dataset.drawn = 'true';
    const onResize = () => {
      if (!chart.isConnected) { window.removeEventListener('resize', onResize); plot.destroy(); return; }
      plot.setSize({ width: width(), height: 260 });
    };
    window.addEventListener('resize', onResize);
  } catch {
    add(chart, note('error', 'The chart library is missing on this server (run make to install it); the numbers are in the table below.'));
  }
}

async function renderPlacements(box, range) {
  const s = await api('GET', '/stats' + query({ ...range, groupBy: 'placement' }));
  if (!s.rows.length) { add(box, note('info', 'No impressions in this range.')); return; }
  add(box, table('CTR per placement', ['Placement', 'Impressions', 'Clicks', 'CTR'],
    s.rows.map((r) => h('tr', {}, h('td', {}, r.key), h('td', { class: 'num' }, fmtInt(r.impressions)), h('td', { class: 'num' }, fmtInt(r.clicks)), h('td', { class: 'num' }, fmtPct(r.ctr))))));
}

async function renderTopOffers(box, range) {
  const s = await api('GET', '/stats' + query({ ...range, groupBy: 'offer' }));
  const rows = s.rows.slice(0, 10);
  if (!rows.length) { add(box, note('info', 'No impressions in this range.')); return; }
  const titles = await Promise.all(rows.map((r) => api('GET', '/offers/' + encodeURIComponent(r.key)).then((o) => o.title, () => null)));
  add(box, table('Top offers by impressions', ['Offer', 'Impressions', 'Clicks', 'CTR'],
    rows.map((r, i) => h('tr', {},
      h('td', {}, h('a', { href: '#/offer' + query({ id: r.key }) }, titles[i] ?? `Offer ${r.key}`)),
      h('td', { class: 'num' }, fmtInt(r.impressions)), h('td', { class: 'num' }, fmtInt(r.clicks)), h('td', { class: 'num' }, fmtPct(r.ctr))))));
}

async function renderSync(box) {
  const n = await optional('/network');
  if (!n) { add(box, note('info', 'Network import is not available on this server.')); return; }
  const items = n.networks.map((x) => {
    const r = x.lastSync;
    const state = r
      ? `${r.status}, started ${fmtTime(r.startedAt)}${r.finishedAt ? ', finished ' + fmtTime(r.finishedAt) : ''}; created ${r.created ?? 0}, updated ${r.updated ?? 0}, disabled ${r.disabled ?? 0}${r.error ? '. ' + r.error : ''}`
      : (x.credentialsSet ? 'never synced' : 'no credentials set');
    return h('li', {}, h('strong', {}, x.network === 'admitad' ? 'Admitad' : x.network === 'awin' ? 'Awin' : x.network), ': ', state);
  });
  add(box, h('ul', { class: 'plain' }, items), h('p', {}, h('a', { href: '#/network' }, 'Network settings')));
}

// When rollups, retention and scheduled syncs last ran (workers, or placardctl from cron).
const JOB_NAMES = { rollup: 'Statistics rollup', retention: 'Raw event retention', sync: 'Scheduled sync check' };
async function renderBackground(box) {
  const b = await optional('/background');
  if (!b) { add(box, note('info', 'Background work is not reported by this server.')); return; }
  const now = Date.now();
  const items = b.jobs.map((j) => {
    const ageMin = j.lastRunAt ? (now - Date.parse(j.lastRunAt)) / 60000 : null;
    const state = j.lastRunAt
      ? `${j.ok ? 'ran' : 'failed'} ${fmtTime(j.lastRunAt)} (${j.runner === 'placardctl' ? 'from cron' : 'in a worker'})`
      : 'never ran';
    const stale = j.job === 'rollup' && (ageMin === null || ageMin > 10);
    return h('li', { dataset: { job: j.job, stale: String(stale) } }, h('strong', {}, JOB_NAMES[j.job] || j.job), ': ', state,
      stale ? h('span', { class: 'warn' }, ' — statistics may lag: is the cron line for placardctl rollup in place?') : '');
  });
  add(box, h('ul', { class: 'plain' }, items));
}
