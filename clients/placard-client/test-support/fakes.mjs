// Test doubles for placard-client: a manual clock with timers, storage.local, fetch and alarms.
export class Clock {
  constructor(t = Date.UTC(2026, 10, 24, 12)) { this.t = t; this.timers = []; this.seq = 0; }
  now = () => this.t;
  setTimeout = (fn, ms) => { const id = ++this.seq; this.timers.push({ id, at: this.t + ms, fn }); return id; };
  clearTimeout = (id) => { this.timers = this.timers.filter((x) => x.id !== id); };
  // Moves time forward, running due timers in order.
  advance(ms) {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }
}

// chrome.storage.local: values are copied in and out, as the real one serialises them.
export class Storage {
  constructor() { this.data = new Map(); this.writes = 0; }
  async get(key) {
    return this.data.has(key) ? { [key]: JSON.parse(this.data.get(key)) } : {};
  }
  async set(obj) {
    this.writes += 1;
    for (const [k, v] of Object.entries(obj)) this.data.set(k, JSON.stringify(v));
  }
  peek(key) { return this.data.has(key) ? JSON.parse(this.data.get(key)) : undefined; }
}

export function response(status, body, headers = {}) {
  const h = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (k) => (h.has(k.toLowerCase()) ? h.get(k.toLowerCase()) : null) },
    json: async () => (typeof body === 'string' ? JSON.parse(body) : body),
  };
}

// fetch whose answers a test script decides: handler(url, init) -> response | throws.
export class Fetch {
  constructor(handler) { this.calls = []; this.handler = handler; }
  fn = async (url, init = {}) => {
    const body = init.body ? JSON.parse(init.body) : undefined;
    this.calls.push({ url, method: init.method, headers: init.headers || {}, body });
    return this.handler(url, { ...init, json: body });
  };
  to(suffix) { return this.calls.filter((c) => c.url.endsWith(suffix)); }
}

export class Alarms {
  constructor() { this.created = []; }
  create(name, info) { this.created.push({ name, ...info }); }
  async get(name) { const a = this.last(name); return a ? { name, periodInMinutes: a.periodInMinutes } : undefined; }
  last(name) { return [...this.created].reverse().find((a) => a.name === name); }
}

// Lets pending promise chains run (storage and fetch doubles resolve at once).
export async function settle(rounds = 20) {
  for (let i = 0; i < rounds; i += 1) await new Promise((r) => setImmediate(r));
}

export const CONFIG = {
  apiVersion: 1, available: true, refreshIntervalSeconds: 900, minExtensionVersion: '1.0.0',
  countries: ['DE', 'FR'], placements: [{ name: 'popup-main', maxOffers: 2 }, { name: 'sidebar', maxOffers: 1 }],
};
export const CATEGORIES = { categories: [{ path: 'books', name: 'Books', icon: 'book', displayOrder: 1, children: [] }] };
