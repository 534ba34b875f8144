// The stand-in affiliate networks (tests/network_standin/standin.py) on 127.0.0.1, for the sync
// test: started before the stack (whose config points network.*.api_base at it), stopped at the end.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { REPO } from './stack.mjs';

export class StandIn {
  // Resolves once the stand-in prints "PORT <n>".
  async start() {
    this.proc = spawn('python3', [path.join(REPO, 'tests/network_standin/standin.py'), '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const lines = readline.createInterface({ input: this.proc.stdout });
    const first = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the stand-in did not start within 10 s')), 10000);
      this.proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the stand-in exited (${code})`)); });
      lines.once('line', (l) => { clearTimeout(timer); resolve(l); });
    });
    const [word, port] = first.trim().split(/\s+/);
    if (word !== 'PORT' || !/^\d+$/.test(port || '')) throw new Error(`the stand-in said ${JSON.stringify(first)}`);
    this.base = `http://127.0.0.1:${port}`;
    return this;
  }

  // POST /__control: settings merged into the stand-in's ({reset: true} restores its defaults first).
  async control(settings) {
    const r = await fetch(this.base + '/__control', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(settings) });
    if (!r.ok) throw new Error(`stand-in control answered ${r.status}`);
    return r.json();
  }

  stop() {
    if (this.proc && this.proc.exitCode === null) this.proc.kill('SIGTERM');
  }
}
