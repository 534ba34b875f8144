// The extension test's own servers on 127.0.0.1: the pages (a long article the content script
// fills, the offers' landing page) and a proxy in front of the stack that can pass, fail like a
// server that is down (connection reset, then 503), or hold impression requests (to stop the
// worker while one is in flight). Every request the proxy sees is logged.
import http from 'node:http';

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article</title>
<style>body{margin:0;font:16px sans-serif}.filler{height:2400px;background:linear-gradient(#eef,#fee)}</style></head>
<body><h1>An article</h1><div class="filler">Long text.</div><p id="end">The end.</p></body></html>`;

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

export class Pages {
  constructor() { this.landings = []; }
  async start() {
    this.server = http.createServer((req, res) => {
      if (req.url.startsWith('/placard-example/')) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        return res.end(ARTICLE);
      }
      if (req.url.startsWith('/landing/')) {
        this.landings.push({ url: req.url, referer: req.headers.referer || null, at: Date.now() });
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end('<!doctype html><title>Landed</title><h1>The merchant</h1>');
      }
      res.writeHead(404);
      return res.end();
    });
    this.port = await listen(this.server);
    this.base = `http://127.0.0.1:${this.port}`;
    return this;
  }
  stop() { this.server?.close(); this.server?.closeAllConnections?.(); }
}

export class ApiProxy {
  // The extension's base address is this proxy plus `prefix`: a service under a base path, as the
  // client must join it. Requests outside the prefix are 404 (and logged).
  constructor(target, prefix = '/offers') {
    this.target = new URL(target);
    this.prefix = prefix;
    this.mode = 'pass'; // pass | reset | unavailable | hold
    this.log = []; // {method, path, status, body, at}
    this.held = [];
  }
  async start() {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.port = await listen(this.server);
    this.base = `http://127.0.0.1:${this.port}`;
    return this;
  }
  stop() { this.release(); this.server?.close(); this.server?.closeAllConnections?.(); }
  // Drops the held requests without forwarding them (their sender is gone).
  release() { for (const h of this.held.splice(0)) h.req.socket.destroy(); }
  impressions() { return this.log.filter((e) => e.path === '/api/v1/events/impression'); }

  handle(req, res) {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const inside = req.url.startsWith(this.prefix + '/');
      const url = inside ? req.url.slice(this.prefix.length) : req.url;
      const entry = { method: req.method, path: url.split('?')[0], url, outside: !inside, origin: req.headers.origin || null, body: body.toString('utf8'), status: null, answer: null, at: Date.now() };
      this.log.push(entry);
      if (!inside) { entry.status = 404; res.writeHead(404); res.end(); return; }
      if (this.mode === 'reset') { entry.status = 'reset'; req.socket.destroy(); return; }
      if (this.mode === 'unavailable') {
        entry.status = 503;
        res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1' });
        res.end('{"error":{"code":"service_unavailable","message":"down for the test"}}');
        return;
      }
      if (this.mode === 'hold' && entry.path === '/api/v1/events/impression') { entry.status = 'held'; this.held.push({ req, res }); return; }
      const headers = { ...req.headers, host: this.target.host };
      const up = http.request({ host: this.target.hostname, port: this.target.port, method: req.method, path: url, headers }, (r) => {
        const answer = [];
        r.on('data', (c) => answer.push(c));
        r.on('end', () => {
          entry.status = r.statusCode;
          entry.answer = Buffer.concat(answer).toString('utf8');
          res.writeHead(r.statusCode, r.headers);
          res.end(Buffer.concat(answer));
        });
      });
      up.on('error', () => { entry.status = 'upstream-error'; req.socket.destroy(); });
      up.end(body);
    });
  }
}
