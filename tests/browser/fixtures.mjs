// The browser tests' data, loaded with SQL into a fresh stack (DEMO_DATA=0).
import { sqlStr } from './stack.mjs';

export const XSS = '<img src=x onerror=alert(1)>';
export const XSS_EMAIL = 'probe<img src=x onerror=alert(1)>@example.test';
export const PLACEMENT = 'popup-main';

export const CATEGORIES = [
  // id, path, parent, name, icon, order, enabled
  [1, 'electronics', null, 'Electronics', 'plug', 10, 1],
  [2, 'electronics.audio', 1, 'Audio', 'headphones', 20, 1],
  [3, 'electronics.phones', 1, 'Phones', 'phone', 10, 1],
  [4, 'fashion', null, 'Fashion', 'shirt', 20, 1],
  [5, 'fashion.shoes', 4, 'Shoes', 'shoe', 10, 1],
  [6, 'books', null, 'Books', 'book', 30, 1],
  [7, 'garden', null, 'Garden', 'leaf', 40, 1],
];

// id, network, title, merchant, category id, priority, countries, tracking
export const OFFERS = [
  [1001, 'manual', 'Acme noise-cancelling headphones', 'Acme Audio', 2, 5, ['DE', 'FR'], 'http://127.0.0.1:9/acme'],
  [1002, 'manual', XSS, XSS, 6, 3, ['DE'], 'http://127.0.0.1:9/probe'],
  [1003, 'admitad', 'Imported phone case deal', 'Case Shop', 3, 0, ['DE'], 'http://127.0.0.1:9/case'],
  [1004, 'manual', 'Running shoes 20% off', 'Stride', 5, 1, ['DE'], 'http://127.0.0.1:9/shoes'],
];

export function fixtureSql() {
  const s = [
    'UPDATE countries SET selected = 0',
    // Present after migration 0004 already; inserted here for a database without it.
    "INSERT INTO countries (code, name, selected) VALUES ('AT', 'Austria', 0), ('DE', 'Germany', 1), ('FR', 'France', 1) ON DUPLICATE KEY UPDATE selected = VALUES(selected)",
    `INSERT INTO placements (id, name, max_offers, enabled) VALUES (1, ${sqlStr(PLACEMENT)}, 6, 1), (2, 'sidebar', 3, 1)`,
  ];
  for (const [id, p, parent, name, icon, order, en] of CATEGORIES) {
    s.push(`INSERT INTO categories (id, path, parent_id, name, icon, display_order, enabled) VALUES (${id}, ${sqlStr(p)}, ${parent ?? 'NULL'}, ${sqlStr(name)}, ${sqlStr(icon)}, ${order}, ${en})`);
  }
  for (const [id, network, title, merchant, cat, prio, countries, tracking] of OFFERS) {
    s.push(`INSERT INTO offers (id, network, external_id, title, merchant, category_id, priority, enabled, is_demo, tracking_url) VALUES (${id}, ${sqlStr(network)}, ${network === 'manual' ? 'NULL' : sqlStr('ext-' + id)}, ${sqlStr(title)}, ${sqlStr(merchant)}, ${cat}, ${prio}, 1, 0, ${sqlStr(tracking)})`);
    for (const c of countries) s.push(`INSERT INTO offer_countries (offer_id, country_code) VALUES (${id}, ${sqlStr(c)})`);
  }
  // An account whose email holds markup (registration refuses it; the database need not).
  s.push(`INSERT INTO accounts (email, password_hash, status) VALUES (${sqlStr(XSS_EMAIL)}, 'none', 'pending')`);
  s.push("UPDATE settings SET value = '1.0.0' WHERE name = 'minExtensionVersion'");
  s.push('UPDATE catalog_version SET version = version + 1 WHERE id = 1');
  return s.join(';\n') + ';\n';
}
