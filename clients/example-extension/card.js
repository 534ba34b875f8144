// One offer as a card. Text goes in as text (titles come from affiliate networks). A card is
// clickable only for a real offer: a demonstration record has no clickUrl and no button.
export function renderCard(doc, offer, onOpen) {
  const el = (tag, cls, text) => {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  };
  const card = el('article', 'placard-card');
  card.dataset.offerId = offer.id;
  if (offer.imageUrl && offer.imageUrl.startsWith('https://')) {
    const img = el('img', 'placard-image');
    img.src = offer.imageUrl;
    img.alt = '';
    img.referrerPolicy = 'no-referrer';
    card.append(img);
  }
  card.append(el('p', 'placard-label', offer.isDemo ? 'Example offer' : 'Sponsored'));
  card.append(el('h2', 'placard-title', offer.title));
  card.append(el('p', 'placard-merchant', offer.merchant));
  if (offer.description) card.append(el('p', 'placard-description', offer.description));
  if (offer.couponCode) card.append(el('p', 'placard-coupon', `Code: ${offer.couponCode}`));
  if (!offer.isDemo && offer.clickUrl) {
    const button = el('button', 'placard-open', 'Go to offer');
    button.type = 'button';
    button.addEventListener('click', (event) => onOpen(offer, event));
    card.append(button);
  }
  return card;
}

// The disclosure the stores require next to affiliate links.
export const DISCLOSURE = 'Sponsored offers. Links are affiliate links: if you buy after following one, '
  + 'the extension\'s publisher may earn a commission, at no cost to you. Nothing is opened unless you click.';

export const CARD_CSS = `
.placard-card{font:14px/1.4 system-ui,sans-serif;border:1px solid #ccd;border-radius:8px;padding:10px 12px;margin:8px 0;background:#fff;color:#111}
.placard-label{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#555;margin:0}
.placard-title{font-size:15px;margin:4px 0}
.placard-merchant,.placard-description,.placard-coupon{margin:2px 0}
.placard-image{max-width:100%;max-height:80px}
.placard-open{margin-top:6px;padding:4px 10px}
.placard-disclosure{font:12px/1.4 system-ui,sans-serif;color:#444}`;
