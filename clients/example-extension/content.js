// The in-page placement: one card at the end of a matching page, in a shadow root so the page's
// styles do not reach it. Content scripts are not modules: the module is imported dynamically
// (it is a web-accessible resource). Offers come from the worker, never from this page's origin.
(async () => {
  const placard = await import(chrome.runtime.getURL('placard-client.js'));
  const { CARD_CSS, DISCLOSURE, renderCard } = await import(chrome.runtime.getURL('card.js'));
  const { PAGE_PLACEMENT } = await import(chrome.runtime.getURL('config.js'));
  const { 'example.country': country } = await chrome.storage.local.get('example.country');
  const answer = await placard.ask('query', { placement: PAGE_PLACEMENT, country });
  if (!answer.ok || !answer.offers.length) return;
  const host = document.createElement('div');
  host.id = 'placard-example-slot';
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CARD_CSS;
  const note = document.createElement('p');
  note.className = 'placard-disclosure';
  note.textContent = DISCLOSURE;
  root.append(style);
  const issued = new Map(answer.offers.map((o) => [o.impressionToken, o.receivedAt]));
  const tracker = new placard.ViewabilityTracker({
    onViewable: (token) => placard.ask('impression', { token, issuedAt: issued.get(token) }),
  });
  for (const offer of answer.offers) {
    const card = renderCard(document, offer, (o, event) => placard.clickOffer(o, event));
    root.append(card);
    tracker.observe(card, offer.impressionToken);
  }
  root.append(note);
  document.body.append(host);
  host.dataset.ready = '1';
})();
