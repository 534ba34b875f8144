// DOM helpers. Values from the API only ever go in as text: h() appends strings as text nodes
// and never sets innerHTML.
let uid = 0;
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = String(v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' || k === 'checked' || k === 'selected') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// add(el, ...children): like el.append, but skips null/false and flattens arrays; strings are text.
export function add(el, ...children) {
  append(el, children);
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function fmtTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
}

export function fmtDate(iso) {
  if (!iso) return '—';
  return String(iso).slice(0, 10);
}

export function fmtPct(x) {
  return (Number(x || 0) * 100).toFixed(2) + ' %';
}

export function fmtInt(n) {
  return Number(n || 0).toLocaleString('en-US');
}

// A note line for a screen: kind is "info", "ok" or "error".
export function note(kind, text) {
  return h('p', { class: `note note-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

export function table(caption, headers, rows, options = {}) {
  // Each cell knows its column's name: narrow screens show rows as stacked cards (admin.css).
  for (const tr of rows) {
    if (tr.children.length !== headers.length) continue;
    [...tr.children].forEach((td, i) => { td.dataset.label = headers[i]; });
  }
  return h('div', { class: 'table-wrap', tabindex: options.scrollable === false ? undefined : '0', role: 'region', 'aria-label': caption },
    h('table', { class: options.class || 'stack' },
      h('caption', { class: options.showCaption ? '' : 'sr-only' }, caption),
      h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows)));
}
