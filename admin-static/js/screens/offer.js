// One offer: what the network or creator gave (read only) and what an administrator may change.
import { api, all } from '../api.js';
import { add, h, note, fmtTime } from '../dom.js';
import { Form, input, select, checkbox, submit, toLocalInput, fromLocalInput } from '../forms.js';

export function parseCountries(text) {
  return text.split(/[\s,;]+/).map((c) => c.trim().toUpperCase()).filter(Boolean);
}

export async function render(view, ctx) {
  const id = ctx.params.get('id') || '';
  const back = ctx.params.get('back');
  const backLink = h('a', { href: back && back.startsWith('#/offers') ? back : '#/offers' }, 'Back to the offers');
  const [offer, categories] = await Promise.all([api('GET', '/offers/' + encodeURIComponent(id)), all('/categories')]);
  add(view, h('p', {}, backLink), h('h1', {}, offer.title));

  const facts = h('dl', { class: 'facts' });
  const fact = (k, v) => add(facts, h('div', {}, h('dt', {}, k), h('dd', {}, v === null || v === undefined || v === '' ? '—' : String(v))));
  fact('Id', offer.id);
  fact('Network', offer.network + (offer.externalId ? ` (external id ${offer.externalId})` : ''));
  fact('Merchant', offer.merchant);
  fact('Description', offer.description);
  fact('Coupon code', offer.couponCode);
  fact('Image URL', offer.imageUrl);
  fact('Tracking URL', offer.trackingUrl);
  fact('Demonstration', offer.isDemo ? 'yes (shown to users, never clicked through)' : 'no');
  fact('Created', fmtTime(offer.createdAt));
  fact('Updated', fmtTime(offer.updatedAt));

  const imported = offer.network !== 'manual';
  const overrides = imported
    ? (offer.overrides.length
      ? note('info', `Overrides kept across syncs: ${offer.overrides.join(', ')}.`)
      : note('info', 'No overrides: every field follows the network. A field you save here becomes an override that later syncs keep.'))
    : null;

  const form = new Form({ label: 'Edit offer' });
  const enabled = checkbox(offer.enabled);
  const priority = input({ type: 'number', min: -1000, max: 1000, step: 1, value: String(offer.priority) });
  const from = input({ type: 'datetime-local', step: 1, value: toLocalInput(offer.validFrom) });
  const until = input({ type: 'datetime-local', step: 1, value: toLocalInput(offer.validUntil) });
  // An imported offer whose network category is not mapped has none (not served until mapped).
  const cat = select([...(offer.category === null ? [['', '— not mapped —']] : []), ...categories.map((c) => [c.path, `${c.path} — ${c.name}`])], offer.category ?? '');
  const countries = input({ value: offer.countries.join(' ') });
  add(form.el, 
    form.field('enabled', 'Enabled', enabled),
    form.field('priority', 'Priority', priority, 'From -1000 to 1000; higher is shown first.'),
    form.field('validFrom', 'Valid from (UTC)', from, 'Empty: no start.'),
    form.field('validUntil', 'Valid until (UTC)', until, 'Empty: no end.'),
    form.field('category', 'Category', cat),
    form.field('countries', 'Countries', countries, offer.allCountries ? 'Every selected country (from the network). Codes entered here replace that, e.g. DE FR AT.' : 'Two-letter codes separated by spaces, e.g. DE FR AT.'),
    h('div', { class: 'actions' }, submit('Save changes')), form.status);
  form.onSubmit(async () => {
    // Only what changed is sent: on imported offers every field sent becomes an override.
    const patch = {};
    if (enabled.checked !== offer.enabled) patch.enabled = enabled.checked;
    if (priority.value.trim() !== String(offer.priority)) patch.priority = priority.value.trim() === '' ? '' : Number(priority.value);
    if (from.value !== toLocalInput(offer.validFrom)) patch.validFrom = fromLocalInput(from.value);
    if (until.value !== toLocalInput(offer.validUntil)) patch.validUntil = fromLocalInput(until.value);
    if (cat.value && cat.value !== offer.category) patch.category = cat.value;
    const cs = parseCountries(countries.value);
    if ([...new Set(cs)].sort().join(' ') !== offer.countries.join(' ')) patch.countries = cs;
    if (Object.keys(patch).length === 0) { form.say('info', 'Nothing changed.'); return; }
    const after = await api('PATCH', '/offers/' + encodeURIComponent(offer.id), patch);
    Object.assign(offer, after);
    form.say('ok', `Saved at ${fmtTime(after.updatedAt)}.`);
  });
  add(view, h('div', { class: 'grid two' },
    h('section', { class: 'card', 'aria-labelledby': 'of-h' }, h('h2', { id: 'of-h' }, 'Offer'), facts),
    h('section', { class: 'card', 'aria-labelledby': 'ed-h' }, h('h2', { id: 'ed-h' }, 'What you can change'), overrides, form.el)));
}
