// The category tree: own enable flag, what the public API really shows, icon, order, create, delete.
import { api, all } from '../api.js';
import { add, h, note, table } from '../dom.js';
import { Form, input, checkbox, submit, button, describe } from '../forms.js';

export async function render(view, ctx) {
  const cats = await all('/categories');
  const children = new Map();
  for (const c of cats) {
    const parent = c.path.includes('.') ? c.path.slice(0, c.path.lastIndexOf('.')) : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(c);
  }
  for (const list of children.values()) list.sort((a, b) => a.displayOrder - b.displayOrder || a.path.localeCompare(b.path));

  const status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
  const rows = [];
  const walk = (parent, depth) => {
    for (const c of children.get(parent) || []) {
      rows.push(row(c, depth, (children.get(c.path) || []).length > 0));
      walk(c.path, depth + 1);
    }
  };
  const row = (c, depth, hasChildren) => {
    const toggle = checkbox(c.enabled, { 'aria-label': `Enabled: ${c.name} (${c.path})` });
    toggle.addEventListener('change', async () => {
      toggle.disabled = true;
      try {
        await api('PATCH', '/categories/' + encodeURIComponent(c.path), { enabled: toggle.checked });
        ctx.go('categories', { changed: c.path });
      } catch (e) {
        toggle.checked = !toggle.checked;
        toggle.disabled = false;
        status.textContent = describe(e);
      }
    });
    let shown;
    if (c.effectivelyEnabled) shown = h('span', { class: 'state on' }, 'shown');
    else if (c.enabled) shown = h('span', { class: 'state off' }, 'hidden: a parent is disabled');
    else shown = h('span', { class: 'state off' }, hasChildren ? 'hidden, with its subtree' : 'hidden');
    const canDelete = !hasChildren && c.offerCount === 0;
    const del = button('Delete', {
      disabled: !canDelete,
      title: canDelete ? undefined : 'Only an empty category (no subcategories, no offers) can be deleted',
      'aria-label': `Delete ${c.path}`,
      onclick: async () => {
        if (!window.confirm(`Delete the category ${c.path}?`)) return;
        try {
          await api('DELETE', '/categories/' + encodeURIComponent(c.path));
          ctx.go('categories', { deleted: c.path });
        } catch (e) { status.textContent = describe(e); }
      },
    });
    const edit = button('Edit', { 'aria-label': `Edit ${c.path}`, onclick: () => openEditor(c) });
    return h('tr', { class: c.effectivelyEnabled ? '' : 'muted', dataset: { path: c.path } },
      h('td', {}, h('span', { class: 'indent', dataset: { depth: String(Math.min(depth, 3)) } }, c.name), h('div', { class: 'sub' }, c.path)),
      h('td', {}, c.icon || '—'),
      h('td', { class: 'num' }, String(c.displayOrder)),
      h('td', {}, toggle, ' ', shown),
      h('td', { class: 'num' }, String(c.offerCount)),
      h('td', {}, h('div', { class: 'row-actions' }, edit, del)));
  };
  walk('', 0);
  // Orphans (a parent outside the list) would be a database problem; show them rather than hide.
  for (const c of cats) if (!rows.some((r) => r.dataset.path === c.path)) rows.push(row(c, 0, false));

  const editor = h('section', { class: 'card', 'aria-labelledby': 'ce-h', hidden: true });
  const openEditor = (c) => {
    const form = new Form({ label: `Edit ${c.path}` });
    const name = input({ value: c.name, required: true, maxlength: 100 });
    const icon = input({ value: c.icon, maxlength: 64 });
    const order = input({ type: 'number', step: 1, value: String(c.displayOrder) });
    add(form.el, form.field('name', 'Name', name), form.field('icon', 'Icon', icon, 'An icon name the extension knows, e.g. headphones.'),
      form.field('displayOrder', 'Display order', order), h('div', { class: 'actions' }, submit('Save'), button('Cancel', { onclick: () => { editor.hidden = true; } })), form.status);
    form.onSubmit(async () => {
      await api('PATCH', '/categories/' + encodeURIComponent(c.path), { name: name.value, icon: icon.value, displayOrder: Number(order.value) });
      ctx.go('categories', { changed: c.path });
    });
    editor.replaceChildren(h('h2', { id: 'ce-h' }, `Edit ${c.path}`), form.el);
    editor.hidden = false;
    name.focus();
  };

  const create = new Form({ label: 'New category' });
  const path = input({ required: true, placeholder: 'electronics.audio' });
  const name = input({ required: true, maxlength: 100 });
  const icon = input({ maxlength: 64 });
  const order = input({ type: 'number', step: 1, value: '0' });
  const enabled = checkbox(true);
  add(create.el, create.field('path', 'Path', path, 'Dotted, lower case: the parent must exist (e.g. electronics.audio under electronics).'),
    create.field('name', 'Name', name), create.field('icon', 'Icon', icon), create.field('displayOrder', 'Display order', order),
    create.field('enabled', 'Enabled', enabled), h('div', { class: 'actions' }, submit('Create category')), create.status);
  create.onSubmit(async () => {
    await api('POST', '/categories', { path: path.value.trim(), name: name.value, icon: icon.value, displayOrder: Number(order.value || 0), enabled: enabled.checked });
    ctx.go('categories', { created: path.value.trim() });
  });

  const changed = ctx.params.get('changed') || ctx.params.get('created') || ctx.params.get('deleted');
  add(view, h('h1', {}, 'Categories'),
    h('p', { class: 'lead' }, 'Disabling a category hides it and its whole subtree from the public API; a category is shown only when it and every parent are enabled.'),
    changed ? note('ok', `${ctx.params.get('deleted') ? 'Deleted' : 'Saved'}: ${changed}`) : null,
    status,
    cats.length ? table('Category tree', ['Category', 'Icon', 'Order', 'Enabled', 'Offers', 'Actions'], rows) : note('info', 'No categories yet.'),
    editor,
    h('section', { class: 'card narrow', 'aria-labelledby': 'cn-h' }, h('h2', { id: 'cn-h' }, 'New category'), create.el));
}
