// The module's pure rules: version normalising, URL join, Retry-After, backoff, outcomes, and
// that the module's version is the service's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import {
  CLIENT_VERSION, normalizeVersion, compareVersions, joinUrl, parseRetryAfter, backoffDelay, impressionOutcome,
} from '../placard-client.js';

const here = new URL('.', import.meta.url);

test('extensionVersion is normalised to major.minor.patch', () => {
  assert.equal(normalizeVersion('1.4'), '1.4.0');
  assert.equal(normalizeVersion('1'), '1.0.0');
  assert.equal(normalizeVersion('1.4.2'), '1.4.2');
  assert.equal(normalizeVersion('2.0.1.7'), '2.0.1');
  assert.equal(normalizeVersion('01.02.003'), '1.2.3');
  for (const bad of ['', '1.', '.1', '1..2', '1.2.3.4.5', 'v1.2', '1.2-beta', ' 1.2', '+1', '123456', '1.x']) {
    assert.throws(() => normalizeVersion(bad), /manifest version/, bad);
  }
});

test('versions compare numerically', () => {
  assert.equal(compareVersions('1.10.0', '1.9.9'), 1);
  assert.equal(compareVersions('1.0.0', '1.0.0'), 0);
  assert.equal(compareVersions('0.9.9', '1.0.0'), -1);
});

test('paths are joined to the base address as strings, base path kept', () => {
  assert.equal(joinUrl('https://example.com/offers', '/r/click/1042?t=a.b-c_d'), 'https://example.com/offers/r/click/1042?t=a.b-c_d');
  assert.equal(joinUrl('https://example.com/offers/', '/api/v1/config'), 'https://example.com/offers/api/v1/config');
  assert.equal(joinUrl('http://127.0.0.1:8080', '/api/v1/config'), 'http://127.0.0.1:8080/api/v1/config');
  // Exactly as returned: no normalising of dots, encodings or query (new URL() would change these).
  assert.equal(joinUrl('https://h/offers', '/r/click/7?t=%2e%2E&x=../y'), 'https://h/offers/r/click/7?t=%2e%2E&x=../y');
  assert.equal(joinUrl('https://h/offers', '/../admin'), 'https://h/offers/../admin');
  for (const bad of ['r/click/1', '//evil.example/x', 'https://evil.example/', undefined, 7]) {
    assert.throws(() => joinUrl('https://h', bad), /relative to the base/, String(bad));
  }
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.UTC(2026, 0, 1, 0, 0, 0);
  assert.equal(parseRetryAfter('7', now), 7000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30000);
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter('soon', now), null);
});

test('backoff doubles per attempt, is capped, and is jittered between half and all of it', () => {
  const at = (attempt, r) => backoffDelay(attempt, { baseMs: 1000, maxMs: 8000, random: () => r });
  assert.deepEqual([1, 2, 3, 4, 5, 9].map((a) => at(a, 1)), [1000, 2000, 4000, 8000, 8000, 8000]);
  assert.deepEqual([1, 2, 3, 4].map((a) => at(a, 0)), [500, 1000, 2000, 4000]);
  assert.equal(at(3, 0.5), 3000);
  const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(2, { baseMs: 1000 })));
  assert.ok(seen.size > 10, 'jitter spreads the retries');
  for (const d of seen) assert.ok(d >= 1000 && d <= 2000, String(d));
});

test('impression answers: 200 done; network, 429 and 5xx retried; 400 and 410 dropped', () => {
  assert.equal(impressionOutcome(200), 'done');
  for (const s of [0, 429, 500, 502, 503, 504]) assert.equal(impressionOutcome(s), 'retry', String(s));
  for (const s of [400, 410, 403, 404, 413, 415]) assert.equal(impressionOutcome(s), 'drop', String(s));
});

test('the module is versioned with the service', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', here), 'utf8'));
  assert.equal(pkg.version, CLIENT_VERSION);
  const versionFile = new URL('../../../VERSION', here);
  if (existsSync(versionFile)) assert.equal(readFileSync(versionFile, 'utf8').trim(), CLIENT_VERSION);
  assert.equal(pkg.dependencies, undefined, 'dependency-free');
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(pkg.scripts?.[hook], undefined, hook);
});

test('the example extension ships this very module', () => {
  const source = readFileSync(new URL('../placard-client.js', here), 'utf8');
  const copy = readFileSync(new URL('../../example-extension/placard-client.js', here), 'utf8');
  assert.equal(copy, source, 'clients/example-extension/placard-client.js differs: cp clients/placard-client/placard-client.js clients/example-extension/');
});
