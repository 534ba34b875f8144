// Create a manual offer (with a tracking URL) or a demonstration offer (without one).
import { api, all } from '../api.js';
import { add, h } from '../dom.js';
import { Form, input, select, checkbox, submit, fromLocalInput } from '../forms.js';
import { parseCountries } from './offer.js';

export async function render(view, ctx) {
  const categories = await all('/categories');
  const form = new Form({ label: 'New offer' });
  const kind = select([['manual', 'Manual offer (links to a tracking URL)'], ['demo', 'Demonstration offer (no link)']], ctx.params.get('kind') || 'manual');
  const title = input({ required: true, maxlength: 200 });
  const merchant = input({ maxlength: 200 });
  const description = h('textarea', { rows: 3, maxlength: 2000 });
  const imageUrl = input({ type: 'url' });
  const coupon = input({ maxlength: 64 });
  const cat = select([['', 'Choose…'], ...categories.map((c) => [c.path, `${c.path} — ${c.name}`])], '');
  const countries = input();
  const priority = input({ type: 'number', min: -1000, max: 1000, step: 1, value: '0' });
  const enabled = checkbox(true);
  const tracking = input({ type: 'url' });
  const from = input({ type: 'datetime-local', step: 1 });
  const until = input({ type: 'datetime-local', step: 1 });
  const trackingField = form.field('trackingUrl', 'Tracking URL', tracking, 'http or https.');
  const syncKind = () => { trackingField.hidden = kind.value === 'demo'; };
  kind.addEventListener('change', syncKind);
  syncKind();
  add(form.el, 
    form.field('isDemo', 'Kind', kind), form.field('title', 'Title', title), form.field('merchant', 'Merchant', merchant),
    form.field('description', 'Description', description), form.field('imageUrl', 'Image URL', imageUrl),
    form.field('couponCode', 'Coupon code', coupon), form.field('category', 'Category', cat),
    form.field('countries', 'Countries', countries, 'Two-letter codes separated by spaces, e.g. DE FR AT.'),
    form.field('priority', 'Priority', priority), form.field('enabled', 'Enabled', enabled), trackingField,
    form.field('validFrom', 'Valid from (UTC)', from), form.field('validUntil', 'Valid until (UTC)', until),
    h('div', { class: 'actions' }, submit('Create offer')), form.status);
  const opt = (v) => (v.trim() === '' ? null : v.trim());
  form.onSubmit(async () => {
    const body = {
      title: title.value, description: opt(description.value), merchant: opt(merchant.value), imageUrl: opt(imageUrl.value),
      couponCode: opt(coupon.value), category: cat.value, countries: parseCountries(countries.value),
      priority: priority.value.trim() === '' ? 0 : Number(priority.value), enabled: enabled.checked,
      isDemo: kind.value === 'demo', validFrom: fromLocalInput(from.value), validUntil: fromLocalInput(until.value),
    };
    if (kind.value !== 'demo') body.trackingUrl = tracking.value.trim();
    if (!body.category) delete body.category;
    const created = await api('POST', '/offers', body);
    ctx.go('offer', { id: created.id, created: '1' });
  });
  add(view, h('p', {}, h('a', { href: '#/offers' }, 'Back to the offers')), h('h1', {}, 'New offer'), h('section', { class: 'card narrow' }, form.el));
}
