#!/usr/bin/env node
// Runs the module's tests (node --test ../test/, TAP) and writes {"passed", "failed"} to --summary
// FILE, the form scripts/run-tests.sh reads. Usage: node clients/placard-client/test-support/summary.mjs
//   [--summary FILE]. Exit 1 when a test failed or none ran.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'test');
const i = process.argv.indexOf('--summary');
const summary = i > 0 ? process.argv[i + 1] : null;
const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', dir], { encoding: 'utf8', timeout: 120000 });
process.stdout.write(r.stdout || '');
process.stderr.write(r.stderr || '');
const total = (name) => Number((new RegExp(`^# ${name} (\\d+)$`, 'm').exec(r.stdout || '') || [])[1] || 0);
const passed = total('pass');
let failed = total('fail') + total('cancelled');
if (r.status !== 0 && failed === 0) failed = 1; // crashed or timed out
if (passed + failed === 0) failed = 1; // nothing ran: a failure, not a pass
console.log(`${passed} passed, ${failed} failed`);
if (summary) writeFileSync(summary, JSON.stringify({ passed, failed }) + '\n');
process.exitCode = failed ? 1 : 0;
