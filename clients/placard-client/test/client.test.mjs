// The worker side: ETag cache, the refresh alarm, what the config allows, the impression queue
// (durable, retried with backoff and Retry-After, dropped when it must be) and clicks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PlacardClient, installWorker } from '../placard-client.js';
import { Alarms, CATEGORIES, CONFIG, Clock, Fetch, Storage, response, settle } from '../test-support/fakes.mjs';

const BASE = 'https://example.com/offers';
const eq_ = (a, e, m) => assert.equal(a, e, m);

// Moves the clock in steps, letting the asynchronous sends between them run.
async function run(clock, ms, step = 1000) {
  for (let t = 0; t < ms; t += step) { clock.advance(step); await settle(); }
}

function setup(handler, extra = {}) {
  const clock = new Clock();
  const storage = extra.storage || new Storage();
  const fetch = new Fetch(handler);
  const alarms = new Alarms();
  const opened = [];
  const client = new PlacardClient({
    baseUrl: BASE, extensionVersion: '1.4', storage, fetch: fetch.fn, alarms, now: clock.now,
    setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout, random: () => 1,
    openTab: (u) => opened.push(u), backoff: { baseMs: 1000, maxMs: 60000 }, ...extra.options,
  });
  return { clock, storage, fetch, alarms, client, opened };
}

// A server: config and categories with ETags, the query, and scripted impression answers.
function server({ config = CONFIG, impression = () => response(200, { status: 'recorded' }), query } = {}) {
  return (url, init) => {
    if (url.endsWith('/api/v1/config')) {
      const etag = `"c${JSON.stringify(config).length}"`;
      if (init.headers['If-None-Match'] === etag) return response(304, null);
      return response(200, config, { ETag: etag });
    }
    if (url.endsWith('/api/v1/categories')) {
      if (init.headers['If-None-Match'] === '"k1"') return response(304, null);
      return response(200, CATEGORIES, { ETag: '"k1"' });
    }
    if (url.endsWith('/api/v1/offers/query')) {
      return query ? query(init.json) : response(200, { offers: [
        { id: '1', title: 'A', clickUrl: '/r/click/1?t=a', impressionToken: 'tok-1', isDemo: false },
        { id: '2', title: 'B', clickUrl: '/r/click/2?t=b', impressionToken: 'tok-2', isDemo: false },
        { id: '3', title: 'C', clickUrl: '/r/click/3?t=c', impressionToken: 'tok-3', isDemo: false },
      ] });
    }
    if (url.endsWith('/api/v1/events/impression')) return impression(init.json.impressionToken);
    throw new Error('unexpected ' + url);
  };
}

test('config and categories are cached with their ETag and revalidated', async () => {
  const { client, fetch, storage, clock } = setup(server());
  await client.refresh();
  assert.deepEqual(fetch.calls.map((c) => c.url), [`${BASE}/api/v1/config`, `${BASE}/api/v1/categories`]);
  assert.deepEqual(storage.peek('placard.config'), { etag: `"c${JSON.stringify(CONFIG).length}"`, body: CONFIG, at: clock.now() });
  assert.equal(storage.peek('placard.categories').etag, '"k1"');
  clock.advance(5000);
  const { config, categories } = await client.refresh();
  assert.equal(fetch.calls[2].headers['If-None-Match'], storage.peek('placard.config').etag);
  assert.equal(fetch.calls[3].headers['If-None-Match'], '"k1"');
  assert.deepEqual(config, CONFIG, '304 answers the stored body');
  assert.deepEqual(categories, CATEGORIES);
  assert.equal(storage.peek('placard.config').at, clock.now());
  // Cached: no request at all.
  assert.deepEqual(await client.getConfig(), CONFIG);
  assert.equal(fetch.calls.length, 4);
});

test('an unreachable server leaves the cached config in use', async () => {
  let down = false;
  const ok = server();
  const { client } = setup((u, i) => { if (down) throw new TypeError('Failed to fetch'); return ok(u, i); });
  await client.refresh();
  down = true;
  assert.deepEqual((await client.refresh()).config, CONFIG);
});

test('the refresh alarm follows refreshIntervalSeconds, at least 30 s, and is re-armed at start', async () => {
  const { client, alarms, storage } = setup(server({ config: { ...CONFIG, refreshIntervalSeconds: 10 } }));
  await client.start();
  assert.deepEqual(alarms.last('placard-refresh'), { name: 'placard-refresh', periodInMinutes: 0.5, delayInMinutes: 0.5 });
  // A new worker (same storage) arms it again from the cached config, without a request.
  const second = setup(server({ config: { ...CONFIG, refreshIntervalSeconds: 1800 } }), { storage });
  await second.client.start();
  assert.equal(second.fetch.calls.length, 0);
  assert.equal(second.alarms.last('placard-refresh').periodInMinutes, 0.5);
  await second.client.onAlarm({ name: 'placard-refresh' });
  assert.equal(second.alarms.last('placard-refresh').periodInMinutes, 30);
});

test('a worker start keeps a running refresh alarm (re-creating it would postpone it for ever)', async () => {
  const { client, alarms, storage, clock } = setup(server());
  await client.start();
  eq_(alarms.created.filter((a) => a.name === 'placard-refresh').length, 1);
  const next = setup(server(), { storage });
  next.alarms.created.push(...alarms.created); // the browser keeps alarms across worker restarts
  next.clock.t = clock.now() + 60000;
  await next.client.start();
  eq_(next.alarms.created.filter((a) => a.name === 'placard-refresh').length, 1, 'not re-created');
  eq_(next.fetch.calls.length, 0, 'the config is younger than its interval');
  // A config older than its interval (the browser was closed) is refreshed at start.
  const late = setup(server(), { storage });
  late.clock.t = clock.now() + 901000;
  await late.client.start();
  eq_(late.fetch.to('/api/v1/config').length, 1);
});

test('the query obeys available, countries, placements and maxOffers; version normalised', async () => {
  const { client, fetch, clock } = setup(server());
  const r = await client.query({ placement: 'popup-main', country: 'DE', limit: 6 });
  assert.equal(r.reason, null);
  assert.deepEqual(r.offers.map((o) => o.id), ['1', '2'], 'maxOffers 2 of the placement');
  assert.deepEqual(fetch.to('/offers/query')[0].body, { placement: 'popup-main', country: 'DE', extensionVersion: '1.4.0', limit: 2 });
  assert.equal(r.offers[0].receivedAt, clock.now(), 'when the tokens arrived (their age decides when to drop)');
  assert.deepEqual((await client.query({ placement: 'popup-main', country: 'US' })).reason, 'country_not_selected');
  assert.deepEqual((await client.query({ placement: 'nope', country: 'DE' })).reason, 'placement_unknown');
  assert.equal(fetch.to('/offers/query').length, 1, 'refused locally, no request');

  const off = setup(server({ config: { ...CONFIG, available: false } }));
  assert.deepEqual(await off.client.query({ placement: 'popup-main', country: 'DE' }), { offers: [], reason: 'unavailable' });
  assert.equal(off.fetch.to('/offers/query').length, 0);
});

test('outdated: a higher minExtensionVersion, or the 426 answer, stops queries', async () => {
  const old = setup(server({ config: { ...CONFIG, minExtensionVersion: '1.4.1' } }));
  assert.equal((await old.client.query({ placement: 'popup-main', country: 'DE' })).reason, 'outdated');
  assert.equal(old.fetch.to('/offers/query').length, 0);

  const { client, fetch } = setup(server({ query: () => response(426, { error: { code: 'extension_outdated', message: 'x' } }) }));
  assert.equal((await client.query({ placement: 'popup-main', country: 'DE' })).reason, 'outdated');
  assert.equal((await client.query({ placement: 'popup-main', country: 'DE' })).reason, 'outdated');
  assert.equal(fetch.to('/offers/query').length, 1, 'no second query after 426');
});

test('an impression is stored before it is sent, then removed once recorded', async () => {
  let stored;
  const { client, storage, fetch } = setup(server({ impression: (t) => { stored = storage.peek('placard.queue'); return response(200, { status: 'recorded' }); } }));
  await client.recordImpression('tok-1', Date.UTC(2026, 10, 24, 12));
  await settle();
  assert.equal(stored.length, 1, 'queued in storage before the request');
  assert.equal(stored[0].token, 'tok-1');
  assert.deepEqual(fetch.to('/impression').map((c) => c.body), [{ impressionToken: 'tok-1' }]);
  assert.deepEqual(storage.peek('placard.queue'), []);
  // Once per token: reporting it again sends nothing.
  await client.recordImpression('tok-1', Date.UTC(2026, 10, 24, 12));
  await settle();
  assert.equal(fetch.to('/impression').length, 1);
});

test('a queue left by a stopped worker is sent by the next one', async () => {
  const first = setup(server({ impression: () => new Promise(() => {}) })); // hangs: the worker dies
  await first.client.recordImpression('tok-9', first.clock.now());
  await settle();
  assert.equal(first.storage.peek('placard.queue').length, 1);
  const next = setup(server(), { storage: first.storage });
  await next.client.start();
  await settle();
  assert.deepEqual(next.fetch.to('/impression').map((c) => c.body.impressionToken), ['tok-9']);
  assert.deepEqual(next.storage.peek('placard.queue'), []);
});

test('network errors, 5xx and 429 are retried with backoff; Retry-After is honoured', async () => {
  const answers = [
    () => { throw new TypeError('Failed to fetch'); },
    () => response(503, { error: { code: 'service_unavailable' } }),
    () => response(429, { error: { code: 'too_many' } }, { 'Retry-After': '20' }),
    () => response(200, { status: 'recorded' }),
  ];
  const { client, fetch, clock, alarms, storage } = setup(server({ impression: () => answers.shift()() }));
  const sends = () => fetch.to('/impression').length;
  await client.recordImpression('tok-r', clock.now());
  await settle();
  assert.equal(sends(), 1);
  assert.equal(storage.peek('placard.queue')[0].attempts, 1);
  assert.ok(alarms.last('placard-flush').when >= clock.now() + 30000, 'an alarm in case the worker is stopped');
  clock.advance(999); await settle();
  assert.equal(sends(), 1, 'not before the first backoff (1 s)');
  clock.advance(1); await settle();
  assert.equal(sends(), 2);
  clock.advance(1999); await settle();
  assert.equal(sends(), 2, 'second backoff 2 s');
  clock.advance(1); await settle();
  assert.equal(sends(), 3, '429 with Retry-After: 20');
  clock.advance(19999); await settle();
  assert.equal(sends(), 3, 'Retry-After honoured over the 4 s backoff');
  clock.advance(1); await settle();
  assert.equal(sends(), 4);
  assert.deepEqual(storage.peek('placard.queue'), []);
  clock.advance(600000); await settle();
  assert.equal(sends(), 4, 'nothing after it was recorded');
});

test('400 and 410 drop the impression; so does a token older than its lifetime', async () => {
  for (const status of [400, 410]) {
    const { client, fetch, clock, storage } = setup(server({ impression: () => response(status, { error: { code: 'x' } }) }));
    await client.recordImpression('tok', clock.now());
    await settle();
    clock.advance(3600000); await settle();
    assert.equal(fetch.to('/impression').length, 1, String(status));
    assert.deepEqual(storage.peek('placard.queue'), []);
  }
  const { client, fetch, clock, storage } = setup(server({ impression: () => { throw new TypeError('down'); } }),
    { options: { tokenLifetimeSeconds: 60 } });
  await client.recordImpression('tok-old', clock.now() - 61000);
  await settle();
  assert.equal(fetch.to('/impression').length, 0, 'expired before it was sent');
  assert.deepEqual(storage.peek('placard.queue'), []);
  await client.recordImpression('tok-young', clock.now());
  await settle();
  await run(clock, 120000);
  const sent = fetch.to('/impression').length;
  assert.ok(sent >= 2 && sent <= 8, `retried while young (${sent})`);
  await run(clock, 3600000, 60000);
  assert.equal(fetch.to('/impression').length, sent, 'dropped once older than the lifetime');
  assert.deepEqual(storage.peek('placard.queue'), []);
});

test('impressions reported together are all kept (storage writes do not race)', async () => {
  const { client, fetch, clock } = setup(server({ impression: () => new Promise(() => {}) }));
  await Promise.all(['a', 'b', 'c', 'd'].map((t) => client.recordImpression(t, clock.now())));
  await settle();
  const { storage } = client;
  assert.deepEqual((await storage.get('placard.queue'))['placard.queue'].map((i) => i.token).sort(), ['a', 'b', 'c', 'd']);
  assert.ok(fetch.to('/impression').length >= 1);
});

test('a click opens clickUrl joined to the base, exactly as returned', async () => {
  const { client, opened } = setup(server());
  await client.click('/r/click/1042?t=A_b-9.x');
  assert.deepEqual(opened, [`${BASE}/r/click/1042?t=A_b-9.x`]);
  await assert.rejects(client.click('https://evil.example/'), /relative/);
  await assert.rejects(client.click(undefined), /relative/);
  assert.equal(opened.length, 1);
});

test('installWorker answers messages from its own extension only', async () => {
  const listeners = {};
  const api = {
    runtime: { id: 'me', onMessage: { addListener: (f) => { listeners.msg = f; } } },
    alarms: { onAlarm: { addListener: (f) => { listeners.alarm = f; } } },
  };
  const { client } = setup(server());
  await installWorker(client, api);
  const answer = await new Promise((resolve) => {
    assert.equal(listeners.msg({ placard: 'query', placement: 'sidebar', country: 'FR' }, { id: 'me' }, resolve), true);
  });
  assert.equal(answer.ok, true);
  assert.deepEqual(answer.offers.map((o) => o.id), ['1']);
  assert.equal(listeners.msg({ placard: 'query' }, { id: 'someone-else' }, () => {}), false);
  assert.equal(listeners.msg({ other: 1 }, { id: 'me' }, () => {}), false);
  const failed = await new Promise((resolve) => listeners.msg({ placard: 'click', clickUrl: '//x' }, { id: 'me' }, resolve));
  assert.equal(failed.ok, false);
});
