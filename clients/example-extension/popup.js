// The popup placement: asks the worker for offers, counts a card once it is viewable, opens an
// offer only on a click.
import { ask, clickOffer, ViewabilityTracker } from './placard-client.js';
import { CARD_CSS, DISCLOSURE, renderCard } from './card.js';
import { POPUP_PLACEMENT } from './config.js';

const REASONS = {
  unavailable: 'Offers are switched off at the moment.',
  outdated: 'Please update the extension to see offers.',
  unreachable: 'Offers cannot be loaded right now.',
  country_not_selected: 'There are no offers for your country.',
};

const style = document.createElement('style');
style.textContent = CARD_CSS;
document.head.append(style);
document.getElementById('disclosure').textContent = DISCLOSURE;

async function show() {
  const list = document.getElementById('offers');
  const status = document.getElementById('status');
  const { config } = await ask('config');
  const { 'example.country': stored } = await chrome.storage.local.get('example.country');
  const countries = (config && config.countries) || [];
  const country = countries.includes(stored) ? stored : countries[0];
  const select = document.getElementById('country');
  select.replaceChildren(...countries.map((c) => new Option(c, c, false, c === country)));
  const answer = await ask('query', { placement: POPUP_PLACEMENT, country });
  list.replaceChildren();
  status.textContent = answer.ok ? (REASONS[answer.reason] || (answer.offers.length ? '' : 'No offers right now.')) : REASONS.unreachable;
  if (!answer.ok) return;
  const issued = new Map(answer.offers.map((o) => [o.impressionToken, o.receivedAt]));
  const tracker = new ViewabilityTracker({ onViewable: (token) => ask('impression', { token, issuedAt: issued.get(token) }) });
  for (const offer of answer.offers) {
    const card = renderCard(document, offer, (o, event) => clickOffer(o, event));
    list.append(card);
    tracker.observe(card, offer.impressionToken);
  }
  document.body.dataset.ready = String(Date.now());
}

document.getElementById('country').addEventListener('change', async (e) => {
  await chrome.storage.local.set({ 'example.country': e.target.value });
  show();
});
show();
