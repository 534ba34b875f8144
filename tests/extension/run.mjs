#!/usr/bin/env node
// The example extension (clients/example-extension, with clients/placard-client copied in) loaded
// into Debian's Chromium (new headless mode) against a real stack whose allowedClientOrigins
// holds the extension's origin. Usage: node tests/extension/run.mjs [--build build]
//   [--server lighttpd|apache] [--summary FILE] [--keep]. Prints each test, then "N passed, M
// failed"; writes {"passed", "failed", "tests"} to --summary; exit 1 when M > 0. Bounded: the
// whole run is stopped after 6 minutes.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Stack, REPO } from '../browser/stack.mjs';
import { fixtureSql } from '../browser/fixtures.mjs';
import { ApiProxy, Pages } from './servers.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def; };
const BUILD = opt('--build', process.env.BUILD || 'build');
const SERVER = opt('--server', 'lighttpd');
const SUMMARY = opt('--summary', null);
const KEEP = args.includes('--keep');
const ONLY = opt('-k', null); // run only the tests whose names hold one of these words (comma-separated)
const CHROMIUM = process.env.CHROMIUM_BINARY || '/usr/lib/chromium/chromium';
// manifest.json's key fixes the id: the first 16 bytes of SHA-256 of the public key, a-p.
const EXTENSION_ID = 'jlommdpmceiaaffajlecffceocfiphmo';
const ORIGIN = `chrome-extension://${EXTENSION_ID}`;
const DEADLINE_MS = 6 * 60 * 1000;
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

const results = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function assert(cond, message) { if (!cond) throw new Error('assertion failed: ' + message); }
function eq(a, e, message) {
  if (JSON.stringify(a) !== JSON.stringify(e)) throw new Error(`${message}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
}
async function waitUntil(fn, what, timeout = 15000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(150);
  }
}

const stack = new Stack();
const pages = new Pages();
let proxy;
let context;
let profile;
let extDir;
let cookie;

async function admin(method, p, body) {
  const headers = { Origin: stack.base, 'X-Service-Mark': 'admin', Accept: 'application/json' };
  if (cookie) headers.Cookie = cookie;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(`${stack.base}/admin/api/v1${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!cookie && r.headers.get('set-cookie')) cookie = r.headers.get('set-cookie').split(';')[0];
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
async function publicQuery(placement) {
  const r = await fetch(`${stack.base}/api/v1/offers/query`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ placement, country: 'DE', extensionVersion: '1.4.0' }) });
  return (await r.json()).offers || [];
}
const count = (sql) => Number(stack.sql(sql).trim());
// Counted impressions (the service also keeps the ones it answered but did not count).
const impressions = (placement) => count(`SELECT COUNT(*) FROM impressions WHERE placement = '${placement}' AND ignored IS NULL`);

async function worker() {
  const w = context.serviceWorkers().find((s) => s.url().startsWith(ORIGIN));
  return w || context.waitForEvent('serviceworker', { timeout: 15000 });
}
// Stops the extension's service worker the way Chrome does when it idles: its target is closed.
async function stopWorker(page) {
  const w = await worker();
  await w.evaluate(() => { self.placardTestMarker = 1; });
  const cdp = await context.newCDPSession(page);
  const { targetInfos } = await cdp.send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(ORIGIN));
  assert(target, 'the worker target');
  await cdp.send('Target.closeTarget', { targetId: target.targetId });
  await cdp.detach();
}
async function workerRestarted() {
  for (const w of context.serviceWorkers()) {
    const marker = await w.evaluate(() => self.placardTestMarker).catch(() => 'gone');
    if (marker === undefined) return true;
  }
  return false;
}

async function openArticle() {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(`${pages.base}/placard-example/article.html`);
  await page.waitForSelector('#placard-example-slot[data-ready="1"]', { timeout: 15000 });
  return page;
}
// Scrolls so that `fraction` of the in-page card's height is inside the viewport (0: out of view).
async function showCard(page, fraction) {
  await page.evaluate((f) => {
    const card = document.getElementById('placard-example-slot').shadowRoot.querySelector('.placard-card');
    const r = card.getBoundingClientRect();
    const top = r.top + window.scrollY;
    window.scrollTo(0, f === 0 ? 0 : Math.round(top + r.height * f - window.innerHeight));
  }, fraction);
}
async function cardRatio(page) {
  return page.evaluate(() => {
    const r = document.getElementById('placard-example-slot').shadowRoot.querySelector('.placard-card').getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height;
  });
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('the extension loads with the id its manifest key fixes', async () => {
  const w = await worker();
  eq(new URL(w.url()).host, EXTENSION_ID, 'extension id');
});

test('popup shows offers (maxOffers, country, disclosure, demo not clickable, text as text)', async () => {
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/popup.html`);
  await page.waitForSelector('body[data-ready]', { timeout: 15000 });
  eq(await page.inputValue('#country'), 'DE', 'the chosen country');
  const cards = await page.$$eval('.placard-card', (els) => els.map((e) => ({ id: e.dataset.offerId, title: e.querySelector('.placard-title').textContent, button: !!e.querySelector('button') })));
  const expected = (await publicQuery('popup-main')).map((o) => o.id).sort();
  eq(cards.map((c) => c.id).sort(), expected, 'the cards are the offers of popup-main in DE');
  assert(cards.length >= 4 && cards.length <= 6, `at most maxOffers (6) cards, got ${cards.length}`);
  const demo = cards.find((c) => c.id === '1005');
  assert(demo && !demo.button, 'the demonstration record is shown without a button');
  assert(cards.filter((c) => c.id !== '1005').every((c) => c.button), 'real offers have a button');
  assert(cards.some((c) => c.title === '<img src=x onerror=alert(1)>'), 'markup in a title is shown as text');
  assert(/affiliate links/i.test(await page.textContent('#disclosure')), 'the affiliate disclosure');
  const queries = proxy.log.filter((e) => e.path === '/api/v1/offers/query');
  assert(queries.length && queries.every((q) => q.origin === ORIGIN), 'queries come from the worker, with the extension origin');
  assert(queries.every((q) => JSON.parse(q.body).extensionVersion === '1.4.0'), 'extensionVersion normalised from "1.4"');
  const gets = proxy.log.filter((e) => e.path === '/api/v1/config' || e.path === '/api/v1/categories');
  assert(gets.length >= 2, 'config and categories fetched');
  await page.close();
});

test('impression only after the card is half visible for one second; none when scrolled out before', async () => {
  const before = impressions('sidebar');
  const page = await openArticle();
  await sleep(1500);
  eq(impressions('sidebar'), before, 'card out of view: no impression');
  await showCard(page, 0.3);
  assert((await cardRatio(page)) < 0.45, 'about 30 % visible');
  await sleep(1800);
  await showCard(page, 0.8);
  await sleep(300);
  await showCard(page, 0);
  await sleep(1800);
  eq(impressions('sidebar'), before, '30 % for 1.8 s, then 80 % for 0.3 s: no impression');
  eq(proxy.impressions().length, 0, 'nothing sent');
  const shownAt = Date.now(); // before the scroll: the send must come at least 1 s after this
  await showCard(page, 0.6);
  const ratio = await cardRatio(page);
  assert(ratio >= 0.5 && ratio < 0.7, `about 60 % visible (${ratio})`);
  await waitUntil(() => impressions('sidebar') === before + 1, 'the impression recorded', 10000);
  const sent = proxy.impressions();
  eq(sent.length, 1, 'one impression request');
  assert(sent[0].at - shownAt >= 1000, `sent ${sent[0].at - shownAt} ms after the card became viewable`);
  eq(sent[0].origin, ORIGIN, 'sent by the worker');
  await sleep(1500);
  eq(impressions('sidebar'), before + 1, 'once per token');
  await page.close();
});

test('the worker stopped between view and send: the impression still arrives, once', async () => {
  const before = impressions('sidebar');
  const sentBefore = proxy.impressions().length;
  const page = await openArticle();
  proxy.mode = 'hold';
  await showCard(page, 1);
  await waitUntil(() => proxy.held.length === 1, 'the impression request in flight', 10000);
  const token = JSON.parse(proxy.impressions().at(-1).body).impressionToken;
  await stopWorker(page);
  proxy.release();
  proxy.mode = 'pass';
  eq(impressions('sidebar'), before, 'nothing recorded yet');
  // Any event wakes the worker; a page that loads (and queries) is one. Its card is out of view.
  const waker = await openArticle();
  await waitUntil(workerRestarted, 'a new worker', 10000);
  await waitUntil(() => impressions('sidebar') === before + 1, 'the queued impression recorded by the new worker', 15000);
  const resent = proxy.impressions().slice(sentBefore).filter((e) => JSON.parse(e.body).impressionToken === token);
  assert(resent.length >= 2, 'sent again after the restart');
  await sleep(2000);
  eq(impressions('sidebar'), before + 1, 'counted once');
  await page.close();
  await waker.close();
});

test('server down for a while: impressions arrive when it returns, none twice (statistics agree)', async () => {
  const before = impressions('sidebar');
  const first = proxy.impressions().length;
  const a = await openArticle();
  const b = await openArticle();
  proxy.mode = 'reset';
  const downAt = Date.now();
  const tries = () => proxy.impressions().slice(first);
  await showCard(a, 1);
  await showCard(b, 1);
  await b.bringToFront();
  await sleep(2000);
  await a.bringToFront();
  // Down (connections reset) until both impressions were tried at least twice, then answering
  // 503 with Retry-After until one is tried again, then back.
  await waitUntil(() => tries().filter((t) => t.status === 'reset').length >= 4, 'retries while down', 30000);
  proxy.mode = 'unavailable';
  await waitUntil(() => tries().some((t) => t.status === 503), 'a retry answered 503', 30000);
  await sleep(1000);
  proxy.mode = 'pass';
  eq(impressions('sidebar'), before, 'nothing recorded while down');
  await waitUntil(() => impressions('sidebar') === before + 2, 'both impressions recorded', 60000);
  await sleep(3000);
  eq(impressions('sidebar'), before + 2, 'none twice');
  const recorded = proxy.impressions().slice(first).filter((t) => t.status === 200 && /recorded/.test(t.answer));
  eq(recorded.length, 2, 'two "recorded" answers');
  const day = new Date(downAt).toISOString().slice(0, 10);
  const stats = await waitUntil(async () => {
    const s = await admin('GET', `/stats?from=${day}&to=${day}&groupBy=placement`);
    const row = s.rows.find((r) => r.key === 'sidebar');
    return row && row.impressions === before + 2 ? s : null;
  }, 'the statistics to show them', 15000);
  eq(stats.rows.find((r) => r.key === 'sidebar').impressions, impressions('sidebar'), 'statistics and raw events agree');
  await a.close();
  await b.close();
});

test('a click opens the redirect and lands on the offer target; a scripted click opens nothing', async () => {
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/popup.html`);
  await page.waitForSelector('body[data-ready]', { timeout: 15000 });
  const button = page.locator('.placard-card[data-offer-id="1001"] button');
  const clicksBefore = count('SELECT COUNT(*) FROM clicks WHERE offer_id = 1001');
  eq(proxy.log.filter((e) => e.path.startsWith('/r/click/')).length, 0, 'nothing prefetched');
  eq(proxy.log.filter((e) => e.outside).length, 0, 'every request under the base path');
  await button.evaluate((el) => el.click()); // not a user gesture
  await sleep(1500);
  eq(proxy.log.filter((e) => e.path.startsWith('/r/click/')).length, 0, 'a scripted click opens nothing');
  eq(pages.landings.length, 0, 'no landing');
  const [tab] = await Promise.all([context.waitForEvent('page', { timeout: 15000 }), button.click()]);
  await tab.waitForURL(`${pages.base}/landing/1001`, { timeout: 15000 });
  eq(await tab.title(), 'Landed', 'the merchant page');
  const clicks = proxy.log.filter((e) => e.path.startsWith('/r/click/'));
  eq(clicks.length, 1, 'one redirect request');
  const answered = proxy.log.filter((e) => e.path === '/api/v1/offers/query' && e.status === 200)
    .flatMap((e) => JSON.parse(e.answer).offers).filter((o) => o.id === '1001').map((o) => o.clickUrl);
  assert(answered.includes(clicks[0].url), `clickUrl followed exactly as returned, under the base path (${clicks[0].url})`);
  eq(clicks[0].status, 302, 'redirect');
  eq(pages.landings.length, 1, 'landed once');
  await waitUntil(() => count('SELECT COUNT(*) FROM clicks WHERE offer_id = 1001') === clicksBefore + 1, 'the click recorded', 10000);
  await tab.close();
  await page.close();
});

test('a disabled offer is not shown after the next refresh', async () => {
  await admin('PATCH', '/offers/1001', { enabled: false });
  await waitUntil(async () => !(await publicQuery('popup-main')).some((o) => o.id === '1001'), 'the catalog without 1001', 15000);
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/popup.html`);
  await page.waitForSelector('body[data-ready]', { timeout: 15000 });
  const ids = await page.$$eval('.placard-card', (els) => els.map((e) => e.dataset.offerId));
  assert(ids.length > 0, 'other offers still shown');
  assert(!ids.includes('1001'), `the disabled offer is gone (${ids})`);
  await page.close();
});

test('the service switched off: after a config refresh the popup asks for nothing and says so', async () => {
  await admin('PATCH', '/settings', { available: false });
  try {
    await waitUntil(async () => (await (await fetch(`${stack.base}/api/v1/config`)).json()).available === false, 'the config off');
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/popup.html`);
    await page.waitForSelector('body[data-ready]', { timeout: 15000 }).catch(() => {});
    await page.evaluate(() => chrome.runtime.sendMessage({ placard: 'refresh' }));
    const queries = proxy.log.filter((e) => e.path === '/api/v1/offers/query').length;
    await page.reload();
    await page.waitForFunction(() => document.getElementById('status').textContent !== '', null, { timeout: 15000 });
    eq(await page.textContent('#status'), 'Offers are switched off at the moment.', 'the popup says so');
    eq(await page.$$eval('.placard-card', (e) => e.length), 0, 'no cards');
    eq(proxy.log.filter((e) => e.path === '/api/v1/offers/query').length, queries, 'no query sent');
    await page.close();
  } finally {
    await admin('PATCH', '/settings', { available: true });
  }
});

// ---- run -----------------------------------------------------------------------------------
const killer = setTimeout(() => { console.error(`extension tests: over ${DEADLINE_MS / 1000} s, stopping`); finish(true); }, DEADLINE_MS);

let finishing = false;
async function finish(timedOut = false) {
  if (finishing) return;
  finishing = true;
  clearTimeout(killer);
  if (results.some((r) => !r.ok) && proxy) {
    console.log('proxy log (impressions):');
    for (const e of proxy.impressions()) console.log(`  ${new Date(e.at).toISOString()} ${e.status} ${String(e.answer).slice(0, 120)}`);
    try { console.log(stack.sql('SELECT placement, COUNT(*) FROM impressions GROUP BY placement')); } catch { /* the stack is gone */ }
  }
  await context?.close().catch(() => {});
  proxy?.stop();
  pages.stop();
  stack.stop({ keep: KEEP });
  if (profile && !KEEP) rmSync(profile, { recursive: true, force: true });
  if (extDir && !KEEP) rmSync(extDir, { recursive: true, force: true });
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed + (timedOut ? 1 : 0);
  console.log(`${passed} passed, ${failed} failed`);
  if (SUMMARY) writeFileSync(SUMMARY, JSON.stringify({ passed, failed, tests: results }, null, 1));
  process.exit(failed ? 1 : 0);
}

try {
  await stack.start({ build: BUILD, server: SERVER });
  stack.sql(fixtureSql({ extension: true }));
  await pages.start();
  proxy = await new ApiProxy(stack.base).start();
  stack.sql([
    `UPDATE offers SET tracking_url = 'http://127.0.0.1:${pages.port}/landing/1001' WHERE id = 1001`,
    'UPDATE placements SET max_offers = 1 WHERE name = \'sidebar\'',
    'UPDATE catalog_version SET version = version + 1 WHERE id = 1',
  ].join(';\n') + ';\n');
  await admin('POST', '/session', { email: stack.adminEmail, password: stack.adminPassword });
  // The per-client limit (5 impressions of one offer in 5 minutes) would stop counting this one
  // browser's impressions of the one sidebar offer: off for the test.
  await admin('PATCH', '/settings', { allowedClientOrigins: [ORIGIN, 'moz-extension://*'], impressionLimitPer5Minutes: 0 });
  // The extension as a developer ships it, pointed at the proxy, with the module copied in.
  extDir = mkdtempSync(path.join(os.tmpdir(), 'placard-extension-'));
  cpSync(path.join(REPO, 'clients/example-extension'), extDir, { recursive: true });
  cpSync(path.join(REPO, 'clients/placard-client/placard-client.js'), path.join(extDir, 'placard-client.js'));
  writeFileSync(path.join(extDir, 'config.js'), `export const BASE_URL = '${proxy.base}${proxy.prefix}';\nexport const POPUP_PLACEMENT = 'popup-main';\nexport const PAGE_PLACEMENT = 'sidebar';\n`);
  await waitUntil(async () => (await fetch(`${stack.base}/api/v1/config`, { headers: { Origin: 'chrome-extension://other' } })).status === 403, 'the origin list applied');
  profile = mkdtempSync(path.join(os.tmpdir(), 'placard-extension-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', `--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`,
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--disable-features=Translate,OptimizationHints,MediaRouter',
      // The service does not count "HeadlessChrome" (a headless tool, lib/api/bot_agents.cpp):
      // the test's browser says what a user's Chromium says, in the worker too.
      `--user-agent=${USER_AGENT}`],
  });
  const w = await worker();
  // The worker guesses the country from the browser's language when installed (en-US: US, not
  // selected); the user's choice, made here as the popup would store it, must come after that.
  await waitUntil(() => w.evaluate(async () => !!(await chrome.storage.local.get('example.country'))['example.country']), 'the install-time country', 5000).catch(() => {});
  await w.evaluate(() => chrome.storage.local.set({ 'example.country': 'DE' }));
  for (const t of tests) {
    if (ONLY && !ONLY.split(',').some((w) => t.name.includes(w))) continue;
    const start = Date.now();
    try {
      await t.fn();
      results.push({ name: t.name, ok: true, ms: Date.now() - start });
      console.log(`ok   ${t.name} (${Date.now() - start} ms)`);
    } catch (e) {
      results.push({ name: t.name, ok: false, ms: Date.now() - start, error: String(e.stack || e) });
      console.log(`FAIL ${t.name}\n     ${String(e.stack || e).split('\n').join('\n     ')}`);
    }
  }
} catch (e) {
  results.push({ name: 'setup', ok: false, error: String(e.stack || e) });
  console.log(`FAIL setup\n     ${e.stack || e}`);
}
await finish();
