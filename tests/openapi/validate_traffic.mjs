#!/usr/bin/env node
// Validates recorded HTTP traffic against docs/openapi.yaml: every answer whose path and method
// the spec describes must have a status the operation lists, a JSON body that conforms to that
// response's schema, and header values that conform to the headers it declares.
//
// Usage: node tests/openapi/validate_traffic.mjs SPEC TRAFFIC.jsonl...
// A traffic file has one JSON object per line: {"m": method, "p": path with query, "s": status,
// "h": {lower-case header: value}, "b": body text} (tests/e2e/http_client.py writes it when
// PLACARD_TRAFFIC_LOG is set). Paths or methods the spec does not describe (the tests' 404 and
// 405 probes) are counted as not described, not judged. Exit 1 on any violation.
import fs from "node:fs";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import YAML from "yaml";

const [specPath, ...logs] = process.argv.slice(2);
if (!specPath || logs.length === 0) {
  console.error("usage: validate_traffic.mjs SPEC TRAFFIC.jsonl...");
  process.exit(2);
}
const spec = YAML.parse(fs.readFileSync(specPath, "utf8"));
// strict off: OpenAPI's own keywords (example, discriminator, ...) are not JSON Schema.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, "spec");
// Header values are text: "600" is the integer 600 (coerced for their schemas only).
const headerAjv = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
addFormats(headerAjv);
headerAjv.addSchema(spec, "spec");

const pointer = (parts) =>
  "spec#/" + parts.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

function resolve(obj, where) {
  // A $ref within the spec ("#/components/..."): the object and its own pointer.
  if (obj && obj.$ref) {
    const parts = obj.$ref.replace(/^#\//, "").split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    let target = spec;
    for (const p of parts) target = target[p];
    return [target, parts];
  }
  return [obj, where];
}

// Spec paths as regular expressions; literal segments win over parameters.
const templates = Object.keys(spec.paths)
  .map((t) => ({
    t,
    re: new RegExp("^" + t.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+") + "$"),
    params: (t.match(/\{/g) || []).length,
  }))
  .sort((a, b) => a.params - b.params);

const validators = new Map();
function validator(parts, using = ajv) {
  const key = pointer(parts);
  const cacheKey = (using === ajv ? "body " : "header ") + key;
  if (!validators.has(cacheKey)) validators.set(cacheKey, using.getSchema(key));
  return validators.get(cacheKey);
}

const counts = { judged: 0, notDescribed: 0, violations: 0 };
const problems = new Map(); // message -> [count, example]
function violation(rec, message) {
  counts.violations++;
  const key = `${rec.m} ${rec.t} ${rec.s}: ${message}`;
  const seen = problems.get(key);
  if (seen) seen[0]++;
  else problems.set(key, [1, rec.p]);
}

function judge(rec) {
  const path = rec.p.split("?")[0];
  const tpl = templates.find((x) => x.re.test(path));
  const method = rec.m === "HEAD" ? "get" : rec.m.toLowerCase();
  const op = tpl && spec.paths[tpl.t][method];
  if (!op) {
    counts.notDescribed++;
    return;
  }
  rec.t = tpl.t;
  counts.judged++;
  const status = String(rec.s);
  const key = op.responses[status] ? status : op.responses[status[0] + "XX"] ? status[0] + "XX" : "default";
  if (!op.responses[key]) {
    violation(rec, "status not listed");
    return;
  }
  const [response, where] = resolve(op.responses[key], ["paths", tpl.t, method, "responses", key]);
  for (const [name, declared] of Object.entries(response.headers || {})) {
    const value = rec.h[name.toLowerCase()];
    if (value === undefined) continue;
    const [header, hwhere] = resolve(declared, [...where, "headers", name]);
    if (!header.schema) continue;
    const v = validator([...hwhere, "schema"], headerAjv);
    if (!v(value)) violation(rec, `header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(v.errors)}`);
  }
  const type = (rec.h["content-type"] || "").split(";")[0].trim();
  if (rec.m === "HEAD" || type !== "application/json" || !rec.b) return;
  const media = response.content && response.content["application/json"];
  if (!media || !media.schema) {
    violation(rec, "JSON body where the spec declares none");
    return;
  }
  let body;
  try {
    body = JSON.parse(rec.b);
  } catch {
    violation(rec, "body is not JSON");
    return;
  }
  const v = validator([...where, "content", "application/json", "schema"]);
  if (!v(body)) violation(rec, "body: " + ajv.errorsText(v.errors).slice(0, 300));
}

for (const log of logs) {
  for (const line of fs.readFileSync(log, "utf8").split("\n")) {
    if (line.trim()) judge(JSON.parse(line));
  }
}
for (const [message, [n, example]] of problems) console.log(`violation x${n}: ${message} (e.g. ${example})`);
console.log(
  `openapi traffic: ${counts.judged} answers judged, ${counts.notDescribed} not described by the spec, ` +
    `${counts.violations} violations`,
);
process.exit(counts.violations > 0 ? 1 : 0);
