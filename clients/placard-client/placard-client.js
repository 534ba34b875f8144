// placard-client: the browser-extension side of Placard (README.md documents the API).
// One dependency-free ES module, shipped inside the extension (never loaded from a server).
// Worker side: PlacardClient + installWorker (the only code that touches the network).
// Page side (popup, options page, content script): ask, ViewabilityTracker, clickOffer.
export const CLIENT_VERSION = '0.9.0';

const KEYS = { config: 'placard.config', categories: 'placard.categories', queue: 'placard.queue', done: 'placard.done', outdated: 'placard.outdated' };
const REFRESH_ALARM = 'placard-refresh';
const FLUSH_ALARM = 'placard-flush';
const MIN_ALARM_SECONDS = 30; // chrome.alarms fire at most every 30 s
const DONE_KEPT = 500; // tokens remembered as sent or dropped, so a re-report is ignored

// "1.4" -> "1.4.0"; "2.0.1.7" -> "2.0.1". A manifest version is 1 to 4 dot-separated integers.
export function normalizeVersion(version) {
  const parts = String(version).split('.');
  if (parts.length < 1 || parts.length > 4 || !parts.every((p) => /^\d{1,5}$/.test(p))) {
    throw new Error(`not a manifest version: ${version}`);
  }
  while (parts.length < 3) parts.push('0');
  return parts.slice(0, 3).map(Number).join('.');
}

export function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

// Base address + path, joined as strings (contract section 0): "https://h/offers" + "/r/click/1".
export function joinUrl(base, path) {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
    throw new Error(`not a path relative to the base address: ${path}`);
  }
  return String(base).replace(/\/+$/, '') + path;
}

// Retry-After (seconds or an HTTP date) in milliseconds from now; null when absent or unreadable.
export function parseRetryAfter(value, nowMs) {
  if (value === null || value === undefined || value === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

// Exponential backoff with "equal jitter": attempt 1 waits 0.5..1 x baseMs, doubling, capped.
export function backoffDelay(attempt, { baseMs = 1000, maxMs = 600000, random = Math.random } = {}) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

// What the worker does with an impression answer: done, drop, or retry.
export function impressionOutcome(status) {
  if (status === 200) return 'done';
  if (status === 0 || status === 429 || status >= 500) return 'retry';
  return 'drop'; // 400 invalid_token, 410 token_expired, and refusals a retry cannot change
}

export class PlacardClient {
  // options: baseUrl, extensionVersion (manifest form), storage ({get, set} like
  // chrome.storage.local), and optionally fetch, alarms ({create, get}), openTab(url), now(),
  // random(), setTimeout, clearTimeout, tokenLifetimeSeconds (86400), backoff ({baseMs, maxMs}),
  // requestTimeoutMs (15000), log(message).
  constructor(o) {
    this.base = o.baseUrl;
    this.version = normalizeVersion(o.extensionVersion);
    this.storage = o.storage;
    this.fetch = o.fetch || ((...a) => globalThis.fetch(...a));
    this.alarms = o.alarms || null;
    this.openTab = o.openTab || null;
    this.now = o.now || Date.now;
    this.random = o.random || Math.random;
    this.setTimeout = o.setTimeout || ((f, ms) => globalThis.setTimeout(f, ms));
    this.clearTimeout = o.clearTimeout || ((t) => globalThis.clearTimeout(t));
    this.lifetimeMs = (o.tokenLifetimeSeconds || 86400) * 1000;
    this.backoff = { baseMs: 1000, maxMs: 600000, ...(o.backoff || {}), random: this.random };
    this.timeoutMs = o.requestTimeoutMs || 15000;
    this.log = o.log || (() => {});
    this.lock = Promise.resolve();
    this.flushing = null;
    this.timer = null;
  }

  // Storage changes run one at a time (messages may arrive together).
  locked(fn) {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => {});
    return run;
  }
  async load(key, fallback) {
    const got = await this.storage.get(key);
    return got && got[key] !== undefined ? got[key] : fallback;
  }
  save(key, value) { return this.storage.set({ [key]: value }); }

  async request(method, path, { body, headers = {} } = {}) {
    const ctrl = typeof AbortController === 'function' ? new AbortController() : null;
    const t = ctrl ? this.setTimeout(() => ctrl.abort(), this.timeoutMs) : null;
    try {
      const init = { method, headers: { ...headers }, cache: 'no-store', credentials: 'omit', redirect: 'error' };
      if (ctrl) init.signal = ctrl.signal;
      if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
      return await this.fetch(joinUrl(this.base, path), init);
    } finally { if (t !== null) this.clearTimeout(t); }
  }

  // Worker start: re-arm the refresh alarm (when missing: re-creating it would postpone it at
  // every start), refresh a config older than its interval, send what the queue still holds.
  async start() {
    const cfg = await this.load(KEYS.config, null);
    const seconds = cfg ? cfg.body.refreshIntervalSeconds : 900;
    await this.armRefresh(seconds);
    if (!cfg || this.now() - cfg.at >= Math.max(MIN_ALARM_SECONDS, seconds) * 1000) {
      await this.refresh().catch((e) => this.log(`refresh failed: ${e}`));
    }
    return this.flush();
  }
  // Creates the refresh alarm unless one with this period exists.
  async armRefresh(seconds) {
    if (!this.alarms) return;
    const period = Math.max(MIN_ALARM_SECONDS, Number(seconds) || 900) / 60;
    if (this.alarms.get) {
      const existing = await this.alarms.get(REFRESH_ALARM);
      if (existing && existing.periodInMinutes === period) return;
    }
    this.alarms.create(REFRESH_ALARM, { periodInMinutes: period, delayInMinutes: period });
  }
  onAlarm(alarm) {
    if (alarm.name === REFRESH_ALARM) return this.refresh();
    if (alarm.name === FLUSH_ALARM) return this.flush();
    return Promise.resolve();
  }

  // GET with the stored ETag; 304 keeps the stored body. Unreachable: the stored body, or null.
  async cached(key, path) {
    const stored = await this.load(key, null);
    let res;
    try {
      res = await this.request('GET', path, { headers: stored && stored.etag ? { 'If-None-Match': stored.etag } : {} });
    } catch (e) {
      this.log(`GET ${path}: ${e}`);
      return stored ? stored.body : null;
    }
    if (res.status === 304 && stored) {
      await this.save(key, { ...stored, at: this.now() });
      return stored.body;
    }
    if (res.status !== 200) return stored ? stored.body : null;
    const body = await res.json();
    await this.save(key, { etag: res.headers.get('ETag'), body, at: this.now() });
    return body;
  }

  async refresh() {
    const config = await this.cached(KEYS.config, '/api/v1/config');
    const categories = await this.cached(KEYS.categories, '/api/v1/categories');
    if (config) {
      if (compareVersions(this.version, config.minExtensionVersion) >= 0) await this.save(KEYS.outdated, false);
      await this.armRefresh(config.refreshIntervalSeconds); // a new interval re-arms it
    }
    return { config, categories };
  }
  async getConfig() {
    const stored = await this.load(KEYS.config, null);
    return stored ? stored.body : (await this.refresh()).config;
  }
  async getCategories() {
    const stored = await this.load(KEYS.categories, null);
    return stored ? stored.body : (await this.refresh()).categories;
  }

  // Offers for a placement: {offers, reason}; reason is null, or why there are none
  // ('unreachable', 'unavailable', 'outdated', 'placement_unknown', 'country_not_selected', ...).
  async query({ placement, country, category, limit }) {
    const config = await this.getConfig();
    if (!config) return { offers: [], reason: 'unreachable' };
    if (!config.available) return { offers: [], reason: 'unavailable' };
    if (compareVersions(this.version, config.minExtensionVersion) < 0 || await this.load(KEYS.outdated, false)) {
      return { offers: [], reason: 'outdated' };
    }
    const spot = config.placements.find((p) => p.name === placement);
    if (!spot) return { offers: [], reason: 'placement_unknown' };
    if (!config.countries.includes(country)) return { offers: [], reason: 'country_not_selected' };
    const body = { placement, country, extensionVersion: this.version, limit: Math.min(limit || spot.maxOffers, spot.maxOffers) };
    if (category) body.category = category;
    let res;
    try { res = await this.request('POST', '/api/v1/offers/query', { body }); } catch { return { offers: [], reason: 'unreachable' }; }
    if (res.status === 200) {
      const receivedAt = this.now();
      const offers = (await res.json()).offers.slice(0, spot.maxOffers).map((o) => ({ ...o, receivedAt }));
      return { offers, reason: null };
    }
    if (res.status === 426) { await this.save(KEYS.outdated, true); return { offers: [], reason: 'outdated' }; }
    const code = await res.json().then((b) => b.error.code, () => `http_${res.status}`);
    if (res.status === 503 || res.status === 422) await this.refresh();
    return { offers: [], reason: res.status === 503 ? 'unavailable' : code };
  }

  // A viewable impression: queued durably first, then sent. Resolves once it is stored.
  async recordImpression(token, issuedAt) {
    if (typeof token !== 'string' || !token) throw new Error('impressionToken missing');
    await this.locked(async () => {
      const queue = await this.load(KEYS.queue, []);
      const done = await this.load(KEYS.done, []);
      if (done.includes(token) || queue.some((i) => i.token === token)) return;
      const at = this.now();
      queue.push({ token, issuedAt: Number(issuedAt) || at, attempts: 0, nextAt: at });
      await this.save(KEYS.queue, queue);
    });
    this.flush().catch((e) => this.log(`flush failed: ${e}`));
  }

  // Sends every due item; one flush at a time. Resolves when the pass is over.
  flush() {
    if (!this.flushing) this.flushing = this.flushOnce().finally(() => { this.flushing = null; });
    return this.flushing;
  }
  async flushOnce() {
    const due = (await this.load(KEYS.queue, [])).filter((i) => i.nextAt <= this.now());
    for (const item of due) {
      if (this.now() - item.issuedAt > this.lifetimeMs) { await this.settle(item.token, 'drop'); continue; }
      let status = 0;
      let retryAfter = null;
      try {
        const res = await this.request('POST', '/api/v1/events/impression', { body: { impressionToken: item.token } });
        status = res.status;
        retryAfter = parseRetryAfter(res.headers.get('Retry-After'), this.now());
      } catch (e) { this.log(`impression: ${e}`); }
      await this.settle(item.token, impressionOutcome(status), retryAfter);
    }
    await this.schedule();
  }
  settle(token, outcome, retryAfterMs = null) {
    return this.locked(async () => {
      const queue = await this.load(KEYS.queue, []);
      const item = queue.find((i) => i.token === token);
      if (!item) return;
      if (outcome === 'retry') {
        item.attempts += 1;
        item.nextAt = this.now() + Math.max(retryAfterMs || 0, backoffDelay(item.attempts, this.backoff));
        await this.save(KEYS.queue, queue);
        return;
      }
      const done = (await this.load(KEYS.done, [])).concat(token).slice(-DONE_KEPT);
      await this.storage.set({ [KEYS.queue]: queue.filter((i) => i !== item), [KEYS.done]: done });
    });
  }
  // The next retry: a timer while the worker lives, and an alarm in case it is stopped first.
  async schedule() {
    const queue = await this.load(KEYS.queue, []);
    if (this.timer !== null) { this.clearTimeout(this.timer); this.timer = null; }
    if (!queue.length) return;
    const next = Math.min(...queue.map((i) => i.nextAt));
    this.timer = this.setTimeout(() => { this.timer = null; this.flush().catch((e) => this.log(`flush failed: ${e}`)); }, Math.max(0, next - this.now()));
    if (this.alarms) this.alarms.create(FLUSH_ALARM, { when: Math.max(next, this.now() + MIN_ALARM_SECONDS * 1000) });
  }

  // A click the page saw as a user gesture: open clickUrl, joined to the base, in a new tab.
  async click(clickUrl) {
    const url = joinUrl(this.base, clickUrl);
    if (!this.openTab) throw new Error('no openTab');
    await this.openTab(url);
    return url;
  }

  // Answers a page's message ({placard: 'query' | 'config' | 'categories' | 'refresh' |
  // 'impression' | 'click', ...}); null for messages that are not for Placard.
  handle(msg) {
    switch (msg && msg.placard) {
      case 'config': return this.getConfig().then((config) => ({ config }));
      case 'categories': return this.getCategories().then((categories) => ({ categories }));
      case 'refresh': return this.refresh();
      case 'query': return this.query(msg);
      case 'impression': return this.recordImpression(msg.token, msg.issuedAt).then(() => ({ queued: true }));
      case 'click': return this.click(msg.clickUrl).then(() => ({ opened: true }));
      default: return null;
    }
  }
}

// Wires a client into the extension's worker: message and alarm listeners (registered at once, as
// Manifest V3 requires), then start(). `api` is chrome or browser.
export function installWorker(client, api = globalThis.browser || globalThis.chrome) {
  api.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (sender && sender.id !== api.runtime.id) return false;
    const answer = client.handle(msg);
    if (!answer) return false;
    answer.then((r) => sendResponse({ ok: true, ...r }), (e) => sendResponse({ ok: false, error: String(e && e.message || e) }));
    return true;
  });
  api.alarms.onAlarm.addListener((alarm) => { client.onAlarm(alarm).catch((e) => client.log(`${alarm.name}: ${e}`)); });
  return client.start().catch((e) => client.log(`start: ${e}`));
}

// Page side: ask the worker. ask('query', {placement, country}) -> {ok, offers, reason}.
export function ask(kind, payload = {}, runtime = (globalThis.browser || globalThis.chrome).runtime) {
  return runtime.sendMessage({ ...payload, placard: kind });
}

// Page side: opens an offer only for a real user gesture, never for a demonstration record.
export function clickOffer(offer, event, send = ask) {
  if (!event || event.isTrusted !== true || !offer || offer.isDemo || typeof offer.clickUrl !== 'string') return false;
  send('click', { clickUrl: offer.clickUrl });
  return true;
}

// Page side: IAB/MRC display viewability. onViewable(token) runs once per token, after the
// element has had at least half its pixels in view, in a visible tab, for one continuous second.
export class ViewabilityTracker {
  constructor({ onViewable, document: doc = globalThis.document, IntersectionObserver: IO = globalThis.IntersectionObserver,
    setTimeout: st = (f, ms) => globalThis.setTimeout(f, ms), clearTimeout: ct = (t) => globalThis.clearTimeout(t), ratio = 0.5, durationMs = 1000 }) {
    Object.assign(this, { onViewable, doc, st, ct, ratio, durationMs });
    this.items = new Map(); // element -> {token, inView, timer}
    this.seen = new Set();
    this.observer = new IO((entries) => {
      for (const e of entries) {
        const item = this.items.get(e.target);
        if (item) { item.inView = e.isIntersecting && e.intersectionRatio >= this.ratio; this.update(e.target, item); }
      }
    }, { threshold: [0, ratio, 1] });
    this.onVisibility = () => { for (const [el, item] of this.items) this.update(el, item); };
    this.doc.addEventListener('visibilitychange', this.onVisibility);
  }
  observe(element, token) {
    if (this.seen.has(token)) return;
    this.items.set(element, { token, inView: false, timer: null });
    this.observer.observe(element);
  }
  update(element, item) {
    const counting = item.inView && this.doc.visibilityState === 'visible';
    if (counting && item.timer === null) {
      item.timer = this.st(() => this.fire(element, item), this.durationMs);
    } else if (!counting && item.timer !== null) {
      this.ct(item.timer);
      item.timer = null;
    }
  }
  fire(element, item) {
    this.unobserve(element);
    if (this.seen.has(item.token)) return;
    this.seen.add(item.token);
    this.onViewable(item.token);
  }
  unobserve(element) {
    const item = this.items.get(element);
    if (item && item.timer !== null) this.ct(item.timer);
    this.items.delete(element);
    this.observer.unobserve(element);
  }
  disconnect() {
    for (const el of [...this.items.keys()]) this.unobserve(el);
    this.observer.disconnect();
    this.doc.removeEventListener('visibilitychange', this.onVisibility);
  }
}
