"""The inputs of the `make bench` report: the wrk summaries that scripts/bench.sh collected
(results.tsv: step, label, JSON from bench/wrk/step.lua) and the run's facts (meta.txt: key=value,
with the JSON of the statistics, footprint and registration steps)."""

import datetime
import json


def read_meta(path):
    meta = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if "=" in line:
                k, v = line.split("=", 1)
                meta[k] = v
    return meta


def read_results(path):
    steps = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, label, raw = line.rstrip("\n").split("\t", 2)
            d = json.loads(raw)
            secs = d["duration_us"] / 1e6
            status = {int(k): v for k, v in d.get("status", {}).items()}
            bad_status = sum(v for k, v in status.items() if k < 200 or k >= 400)
            e = d["errors"]
            sock = e["connect"] + e["read"] + e["write"] + e["timeout"]
            steps.append({
                "name": name,
                "label": label,
                "requests": d["requests"],
                "seconds": secs,
                "rps": d["requests"] / secs if secs > 0 else 0.0,
                "p50_ms": d["latency_us"]["p50"] / 1000.0,
                "p90_ms": d["latency_us"]["p90"] / 1000.0,
                "p99_ms": d["latency_us"]["p99"] / 1000.0,
                "max_ms": d["latency_us"]["max"] / 1000.0,
                "bytes_per_answer": d["bytes"] / d["requests"] if d["requests"] else 0,
                "status": status,
                "bad_status": max(bad_status, e["status"]),
                "socket_errors": sock,
                "read_errors": e["read"],
                # Requests without an answer: refused/failed connections, failed writes, timeouts.
                # (wrk's "read" errors are connections the server closed between answers, e.g.
                # a keep-alive connection of an Apache child that was retiring; reported, not
                # counted here.)
                "unanswered": e["connect"] + e["write"] + e["timeout"],
                "errors": max(bad_status, e["status"]) + sock,
                "offers_per_answer": (d.get("offers", 0) / d["sampled"]) if d.get("sampled") else None,
                "recorded": d.get("recorded", 0),
                "duplicate": d.get("duplicate", 0),
                "reused": d.get("reused", 0),
                "lines": d.get("lines", 0),
                "cpu_ticks": d.get("cpu_ticks"),
                "load": d.get("load"),
            })
    return steps


def stats_of(meta):
    """The statistics step's figures (bench/stats_bench.py), or {}."""
    raw = meta.get("stats_json", "")
    if not raw:
        return {}
    d = json.loads(raw)
    d["days"] = (datetime.date.fromisoformat(d["to"]) - datetime.date.fromisoformat(d["from"])).days + 1
    return d
