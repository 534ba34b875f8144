// A private Placard stack for the browser tests: scripts/stack.sh with a fresh VAR_DIR, a free
// port, no demo data; fixtures loaded with SQL; stopped at the end. `config` ({key: value})
// replaces those lines of the worker's placard.conf (e.g. network.admitad.api_base), written
// after the first start (placardctl init writes the file) and read by a restart.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

function portFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function freePort() {
  for (let i = 0; i < 200; i += 1) {
    const port = 21000 + Math.floor(Math.random() * 20000);
    if (await portFree(port) && await portFree(port + 20000)) return port;
  }
  throw new Error('no free port pair found');
}

export class Stack {
  async start({ build = 'build', server = 'lighttpd', config = {} } = {}) {
    this.var = mkdtempSync(path.join(os.tmpdir(), 'placard-browser-'));
    this.port = await freePort();
    this.env = { ...process.env, VAR_DIR: this.var, PORT: String(this.port), DEMO_DATA: '0', SERVER: server, BUILD: path.resolve(REPO, build) };
    this.script('start', 240000);
    const keys = Object.keys(config);
    if (keys.length) {
      const conf = path.join(this.var, 'placard.conf');
      const kept = readFileSync(conf, 'utf8').split('\n').filter((l) => l.trim() && !keys.includes(l.split('=')[0].trim()));
      writeFileSync(conf, [...kept, ...keys.map((k) => `${k} = ${config[k]}`)].join('\n') + '\n');
      this.script('stop', 120000);
      this.script('start', 240000);
    }
    this.base = `http://127.0.0.1:${this.port}`;
    this.adminEmail = 'admin@placard.local';
    this.adminPassword = readFileSync(path.join(this.var, 'admin-password'), 'utf8').trim();
    return this;
  }

  script(command, timeout) {
    const r = spawnSync('bash', ['scripts/stack.sh', command], { cwd: REPO, env: this.env, encoding: 'utf8', timeout });
    if (r.status !== 0) throw new Error(`stack.sh ${command} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }

  stop({ keep = false } = {}) {
    if (!this.var) return;
    spawnSync('bash', ['scripts/stack.sh', 'stop'], { cwd: REPO, env: this.env, encoding: 'utf8', timeout: 120000 });
    if (!keep) rmSync(this.var, { recursive: true, force: true });
  }

  sql(statements) {
    const user = process.getuid && process.getuid() === 0 ? 'root' : os.userInfo().username;
    return execFileSync('mariadb', [`--defaults-file=${path.join(this.var, 'my.cnf')}`, '-u', user, '--batch', '--skip-column-names', 'placard'],
      { input: statements, encoding: 'utf8', timeout: 60000 });
  }
}

export function sqlStr(v) {
  if (v === null || v === undefined) return 'NULL';
  return "'" + String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
}
