// The admin page: hash routing (#/offers?q=...), the session, and one module per screen.
import { api, onUnauthorized, query } from './api.js';
import { h, clear, note } from './dom.js';
import { describe } from './forms.js';

const SCREENS = {
  signin: () => import('./screens/signin.js'),
  register: () => import('./screens/register.js'),
  dashboard: () => import('./screens/dashboard.js'),
  offers: () => import('./screens/offers.js'),
  offer: () => import('./screens/offer.js'),
  'offer-new': () => import('./screens/offer_new.js'),
  categories: () => import('./screens/categories.js'),
  countries: () => import('./screens/countries.js'),
  placements: () => import('./screens/placements.js'),
  network: () => import('./screens/network.js'),
  settings: () => import('./screens/settings.js'),
  accounts: () => import('./screens/accounts.js'),
  audit: () => import('./screens/audit.js'),
};
const PUBLIC = new Set(['signin', 'register']);
const MENU_OF = { offer: 'offers', 'offer-new': 'offers' };

const state = { account: null, renderSeq: 0 };

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const q = raw.indexOf('?');
  const name = (q < 0 ? raw : raw.slice(0, q)) || 'dashboard';
  const params = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  return { name: SCREENS[name] ? name : 'dashboard', params, raw };
}

// go('offers', {q: 'x'}) or go('#/offers?q=x')
export function go(name, params) {
  const target = name.startsWith('#') ? name : `#/${name}${query(params)}`;
  if (location.hash === target) render();
  else location.hash = target;
}

function toSignIn() {
  const { name, raw } = parseHash();
  state.account = null;
  showChrome();
  if (PUBLIC.has(name)) return;
  go('signin', { next: '#/' + raw });
}

function showChrome() {
  const signedIn = !!state.account;
  document.getElementById('menu').hidden = !signedIn;
  document.getElementById('who').hidden = !signedIn;
  document.getElementById('who-email').textContent = signedIn ? state.account.email : '';
}

function markMenu(name) {
  const current = MENU_OF[name] || name;
  for (const a of document.querySelectorAll('#menu a')) {
    if (a.dataset.route === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

async function render() {
  const seq = ++state.renderSeq;
  const { name, params } = parseHash();
  const main = document.getElementById('main');
  if (!PUBLIC.has(name) && !state.account) {
    toSignIn();
    return;
  }
  if (PUBLIC.has(name) && state.account) {
    go('dashboard');
    return;
  }
  markMenu(name);
  main.setAttribute('aria-busy', 'true');
  main.dataset.screen = name;
  try {
    const mod = await SCREENS[name]();
    if (seq !== state.renderSeq) return;
    const view = h('div', { class: 'screen screen-' + name });
    const ctx = {
      params, go, account: state.account, stale: () => seq !== state.renderSeq,
      signedIn(account) { state.account = account; showChrome(); },
    };
    clear(main).append(view);
    await mod.render(view, ctx);
    if (seq !== state.renderSeq) return;
    const h1 = view.querySelector('h1');
    document.title = (h1 ? h1.textContent + ' — ' : '') + 'Placard admin';
  } catch (e) {
    if (seq !== state.renderSeq) return;
    if (e && e.code === 'not_signed_in') return;
    clear(main).append(h('h1', {}, 'Something went wrong'), note('error', e && e.status !== undefined ? describe(e) : String(e)));
  } finally {
    if (seq === state.renderSeq) {
      main.removeAttribute('aria-busy');
      main.dataset.ready = String(seq);
    }
  }
}

async function signOut() {
  try {
    await api('DELETE', '/session', undefined, { quiet401: true });
  } catch {
    // Signed out on the server already, or not reachable: either way forget the session here.
  }
  state.account = null;
  showChrome();
  go('signin', { signedOut: '1' });
}

async function start() {
  onUnauthorized(toSignIn);
  document.getElementById('sign-out').addEventListener('click', signOut);
  try {
    const s = await api('GET', '/session', undefined, { quiet401: true });
    state.account = s.account;
  } catch {
    state.account = null;
  }
  showChrome();
  window.addEventListener('hashchange', render);
  // Focus moves to the new screen's heading for keyboard and screen-reader users.
  window.addEventListener('hashchange', () => {
    const main = document.getElementById('main');
    const once = new MutationObserver(() => {
      if (main.getAttribute('aria-busy') === null) {
        once.disconnect();
        const h1 = main.querySelector('h1');
        if (h1) { h1.tabIndex = -1; h1.focus({ preventScroll: false }); }
      }
    });
    once.observe(main, { attributes: true, attributeFilter: ['aria-busy'] });
  });
  render();
}

start();
