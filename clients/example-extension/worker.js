// The extension's service worker: the only place that talks to Placard (a content script's
// request would carry the page's Origin and be refused). Pages ask it by message.
import { PlacardClient, installWorker } from './placard-client.js';
import { BASE_URL } from './config.js';

const client = new PlacardClient({
  baseUrl: BASE_URL,
  extensionVersion: chrome.runtime.getManifest().version,
  storage: chrome.storage.local,
  alarms: chrome.alarms,
  openTab: (url) => chrome.tabs.create({ url }),
  log: (m) => console.warn('placard:', m),
});

// The user's country: chosen in the popup; until then, the region of the browser's language.
chrome.runtime.onInstalled.addListener(async () => {
  const { 'example.country': chosen } = await chrome.storage.local.get('example.country');
  if (!chosen) {
    const region = (chrome.i18n.getUILanguage().split(/[-_]/)[1] || '').toUpperCase();
    if (/^[A-Z]{2}$/.test(region)) await chrome.storage.local.set({ 'example.country': region });
  }
});

// Listeners first (Manifest V3 wakes the worker for them), then the queue left by the last one.
installWorker(client, chrome);
