// The only way the page talks to the server: the admin API, JSON, X-Service-Mark on writes.
// Its address is relative to where this file is served (<base>/admin/js/api.js ->
// <base>/admin/api/v1), so the page works at the origin's root and under a base path alike.
const BASE = new URL('../api/v1', import.meta.url).pathname;

export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

let unauthorized = () => {};
// Called when a request finds no live session (401 not_signed_in).
export function onUnauthorized(handler) {
  unauthorized = handler;
}

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

export function statsUrl(params) {
  return BASE + '/stats' + query(params);
}

// api(method, path, body?, {quiet401}) -> parsed JSON (null for 204). Throws ApiError.
export async function api(method, path, body, options = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Service-Mark'] = 'admin';
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(BASE + path, init);
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  if (res.status === 204) return null;
  let data = null;
  if ((res.headers.get('Content-Type') || '').includes('json')) {
    data = await res.json().catch(() => null);
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    const err = new ApiError(res.status, e.code || 'http_' + res.status, e.message || res.statusText, e.field);
    err.retryAfter = res.headers.get('Retry-After');
    if (res.status === 401 && err.code === 'not_signed_in' && !options.quiet401) unauthorized();
    throw err;
  }
  return data;
}

// Every item of a paginated list (for small lists the page needs whole, e.g. categories).
export async function all(path, params = {}) {
  const items = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api('GET', path + query({ ...params, limit: 200, offset }));
    items.push(...page.items);
    if (items.length >= page.total || page.items.length === 0) return items;
  }
}

// GET that answers null when the endpoint does not exist on this server (404 not_found of the
// router), so screens can say "not available" instead of failing.
export async function optional(path) {
  try {
    return await api('GET', path);
  } catch (e) {
    if (e.status === 404 || e.status === 405) return null;
    throw e;
  }
}
