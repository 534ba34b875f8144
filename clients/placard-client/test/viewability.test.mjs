// The viewability timer (IAB/MRC display: >= 50 % of pixels, visible tab, 1 continuous second,
// once per token) and the click helper (user gesture only, never a demonstration record).
import test from 'node:test';
import assert from 'node:assert/strict';
import { ViewabilityTracker, clickOffer } from '../placard-client.js';
import { Clock } from '../test-support/fakes.mjs';

class FakeIO {
  constructor(cb, opts) { this.cb = cb; this.opts = opts; this.targets = new Set(); FakeIO.last = this; }
  observe(el) { this.targets.add(el); }
  unobserve(el) { this.targets.delete(el); }
  disconnect() { this.targets.clear(); }
  ratio(el, r) { if (this.targets.has(el)) this.cb([{ target: el, intersectionRatio: r, isIntersecting: r > 0 }]); }
}
class FakeDoc {
  constructor() { this.visibilityState = 'visible'; this.listeners = []; }
  addEventListener(t, f) { if (t === 'visibilitychange') this.listeners.push(f); }
  removeEventListener(t, f) { this.listeners = this.listeners.filter((x) => x !== f); }
  set(state) { this.visibilityState = state; for (const f of this.listeners) f(); }
}

function setup() {
  const clock = new Clock();
  const doc = new FakeDoc();
  const fired = [];
  const tracker = new ViewabilityTracker({
    onViewable: (t) => fired.push(t), document: doc, IntersectionObserver: FakeIO,
    setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout,
  });
  return { clock, doc, fired, tracker, io: FakeIO.last };
}

test('half visible for one continuous second counts, once', () => {
  const { clock, fired, tracker, io } = setup();
  assert.deepEqual(io.opts.threshold, [0, 0.5, 1]);
  const card = {};
  tracker.observe(card, 'tok');
  io.ratio(card, 0.5);
  clock.advance(999);
  assert.deepEqual(fired, []);
  clock.advance(1);
  assert.deepEqual(fired, ['tok']);
  io.ratio(card, 0);
  io.ratio(card, 1);
  clock.advance(5000);
  assert.deepEqual(fired, ['tok'], 'once per token');
  tracker.observe({}, 'tok');
  assert.equal(io.targets.size, 0, 'a counted token is not observed again');
});

test('less than half, or scrolled out before a second, does not count', () => {
  const { clock, fired, tracker, io } = setup();
  const card = {};
  tracker.observe(card, 'tok');
  io.ratio(card, 0.49);
  clock.advance(5000);
  assert.deepEqual(fired, []);
  io.ratio(card, 0.8);
  clock.advance(600);
  io.ratio(card, 0.2);
  clock.advance(600);
  io.ratio(card, 0.9);
  clock.advance(900);
  assert.deepEqual(fired, [], 'the second must be continuous');
  clock.advance(100);
  assert.deepEqual(fired, ['tok']);
});

test('a hidden tab stops the clock; visible again starts a new second', () => {
  const { clock, doc, fired, tracker, io } = setup();
  const card = {};
  tracker.observe(card, 'tok');
  io.ratio(card, 1);
  clock.advance(700);
  doc.set('hidden');
  clock.advance(5000);
  assert.deepEqual(fired, []);
  doc.set('visible');
  clock.advance(999);
  assert.deepEqual(fired, []);
  clock.advance(1);
  assert.deepEqual(fired, ['tok']);
});

test('in view while the tab is hidden counts only after a visible second', () => {
  const { clock, doc, fired, tracker, io } = setup();
  doc.set('hidden');
  const card = {};
  tracker.observe(card, 'tok');
  io.ratio(card, 1);
  clock.advance(3000);
  assert.deepEqual(fired, []);
  doc.set('visible');
  clock.advance(1000);
  assert.deepEqual(fired, ['tok']);
});

test('cards are timed independently; unobserve and disconnect stop them', () => {
  const { clock, doc, fired, tracker, io } = setup();
  const a = {}; const b = {}; const c = {};
  tracker.observe(a, 'a'); tracker.observe(b, 'b'); tracker.observe(c, 'c');
  io.ratio(a, 1);
  clock.advance(500);
  io.ratio(b, 0.6); io.ratio(c, 0.6);
  tracker.unobserve(c);
  clock.advance(500);
  assert.deepEqual(fired, ['a']);
  clock.advance(500);
  assert.deepEqual(fired, ['a', 'b']);
  const d = {};
  tracker.observe(d, 'd');
  io.ratio(d, 1);
  tracker.disconnect();
  clock.advance(5000);
  assert.deepEqual(fired, ['a', 'b']);
  assert.equal(doc.listeners.length, 0);
});

test('clicks open only on a user gesture and never for a demonstration record', () => {
  const sent = [];
  const send = (kind, payload) => sent.push([kind, payload]);
  const offer = { clickUrl: '/r/click/1?t=x', isDemo: false };
  assert.equal(clickOffer(offer, { isTrusted: false }, send), false, 'scripted click');
  assert.equal(clickOffer(offer, undefined, send), false);
  assert.equal(clickOffer({ isDemo: true, impressionToken: 't' }, { isTrusted: true }, send), false);
  assert.equal(clickOffer({ ...offer, isDemo: true }, { isTrusted: true }, send), false);
  assert.deepEqual(sent, []);
  assert.equal(clickOffer(offer, { isTrusted: true }, send), true);
  assert.deepEqual(sent, [['click', { clickUrl: '/r/click/1?t=x' }]]);
});
