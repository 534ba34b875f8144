// The browser tests' data, loaded with SQL into a fresh stack (DEMO_DATA=0). The rows and their SQL
// come from the suites' one fixture catalog, tests/e2e/catalog.py (`catalog.py browser`).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CATALOG = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'e2e', 'catalog.py');

function catalog(...args) {
  return execFileSync('python3', [CATALOG, ...args], { encoding: 'utf8' });
}

// The values the tests look for: markup in an offer and in an account's email, the placement.
export const { XSS, XSS_EMAIL, PLACEMENT } = JSON.parse(catalog('browser', '--json'));

// The SQL of the browser suite's catalog; { extension: true } adds the extension suite's demo offer.
export function fixtureSql({ extension = false } = {}) {
  return catalog(extension ? 'extension' : 'browser');
}
