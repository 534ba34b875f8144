// Settings: only the fields changed are sent.
import { api } from '../api.js';
import { add, h, note } from '../dom.js';
import { Form, input, checkbox, submit } from '../forms.js';

const NUMBERS = [
  ['refreshIntervalSeconds', 'Extension refresh interval (seconds)', '60 to 86400.'],
  ['tokenTtlSeconds', 'Impression and click token lifetime (seconds)', '1 to 2592000.'],
  ['sessionIdleMinutes', 'Admin session idle limit (minutes)', '1 to 1440.'],
  ['rawEventRetentionDays', 'Keep raw impressions and clicks (days)', 'At least the token lifetime in days.'],
  ['networkSyncIntervalMinutes', 'Scheduled network sync (minutes)', '0: no scheduled sync.'],
];

export async function render(view) {
  const s = await api('GET', '/settings');
  const form = new Form({ label: 'Settings' });
  const available = checkbox(s.available);
  const minVersion = input({ value: s.minExtensionVersion, pattern: '\\d+\\.\\d+\\.\\d+' });
  const origins = h('textarea', { rows: 4 });
  origins.value = (s.allowedClientOrigins || []).join('\n');
  const nums = Object.fromEntries(NUMBERS.map(([k]) => [k, input({ type: 'number', step: 1, value: String(s[k] ?? '') })]));
  add(form.el, 
    form.field('available', 'Service available (queries answered)', available),
    form.field('minExtensionVersion', 'Lowest extension version served', minVersion, 'major.minor.patch, e.g. 1.4.0.'),
    form.field('allowedClientOrigins', 'Allowed client origins', origins, 'One per line, scheme://host[:port], e.g. chrome-extension://<id>; the entry moz-extension://* admits every Firefox installation (the only wildcard). Empty: no CORS header.'),
    NUMBERS.map(([k, label, hint]) => form.field(k, label, nums[k], hint)),
    h('div', { class: 'actions' }, submit('Save settings')), form.status);
  form.onSubmit(async () => {
    const patch = {};
    if (available.checked !== s.available) patch.available = available.checked;
    if (minVersion.value.trim() !== s.minExtensionVersion) patch.minExtensionVersion = minVersion.value.trim();
    const o = origins.value.split('\n').map((x) => x.trim()).filter(Boolean);
    if (o.join('\n') !== (s.allowedClientOrigins || []).join('\n')) patch.allowedClientOrigins = o;
    for (const [k] of NUMBERS) {
      const v = nums[k].value.trim();
      if (v !== String(s[k])) patch[k] = v === '' ? null : Number(v);
    }
    if (!Object.keys(patch).length) { form.say('info', 'Nothing changed.'); return; }
    try {
      Object.assign(s, await api('PATCH', '/settings', patch));
    } catch (e) {
      const m = /^allowedClientOrigins\[(\d+)\]$/.exec(e.field || '');
      if (m) e.message = `Line ${Number(m[1]) + 1} (${o[Number(m[1])] ?? ''}): ${e.message}`;
      throw e;
    }
    origins.value = s.allowedClientOrigins.join('\n');
    minVersion.value = s.minExtensionVersion;
    form.say('ok', 'Settings saved.');
  });
  add(view, h('h1', {}, 'Settings'),
    h('p', { class: 'lead' }, 'Public origin (a server setting, not editable here): ', h('code', {}, s.publicOrigin ?? 'not set (admin writes are refused until public_origin is set in the config file)')),
    s.available ? null : note('error', 'The service is switched off: queries answer 503.'),
    h('section', { class: 'card narrow' }, form.el));
}
