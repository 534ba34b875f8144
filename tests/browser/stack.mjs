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

// The web server's port and MariaDB's, both below the kernel's ephemeral range (32768 up on
// Linux): a port in that range that is free when checked can be taken a moment later as the
// local end of any outgoing connection, and the other lanes of `make test` open hundreds of
// thousands of them (a CI run lost the extension suite when lighttpd and MariaDB both found
// their ports taken). 21000-26999 for the web server, 27000-32767 for MariaDB.
async function freePorts() {
  for (let i = 0; i < 200; i += 1) {
    const port = 21000 + Math.floor(Math.random() * 6000);
    const dbPort = 27000 + Math.floor(Math.random() * 5768);
    if (await portFree(port) && await portFree(dbPort)) return { port, dbPort };
  }
  throw new Error('no free port pair found');
}

export class Stack {
  async start({ build = 'build', server = 'lighttpd', config = {} } = {}) {
    this.var = mkdtempSync(path.join(os.tmpdir(), 'placard-browser-'));
    const { port, dbPort } = await freePorts();
    this.port = port;
    this.env = { ...process.env, VAR_DIR: this.var, PORT: String(port), DB_PORT: String(dbPort), DEMO_DATA: '0', SERVER: server, BUILD: path.resolve(REPO, build) };
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
