#!/usr/bin/env python3
"""The offers-query mix of `make bench`: one JSON request body per line (Python 3 stdlib only).

    gen_query_mix.py [--lines N] [--seed S] > query-mix.txt

Every body is valid for the catalog of bench/gen_catalog.py (selected countries, enabled
placements and categories), so every answer should be 200:
- category: 20% absent (every category), 30% a top-level one, 50% a leaf;
- country: the 30 selected ones, skewed towards the popular ones (DE, US, GB, ...);
- placement: popup-main 70%, sidebar 20%, newtab 10%;
- limit: absent half of the time (the placement's maxOffers), else 1..8.

With --scale, the mix for comparing catalog sizes: answers must be the same size at 100 and at
100,000 offers, or the comparison measures answer size instead of catalog size. Every body asks
for 3 offers of any category in one of the three most popular countries, which even the
100-offer catalog fills.
"""

import argparse
import json
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, __import__("os").path.dirname(__file__))
import gen_catalog  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--scale", action="store_true", help="equal-size answers at any catalog size")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    if args.scale:
        for _ in range(args.lines):
            body = {"country": rnd.choice(gen_catalog.SELECTED[:3]), "placement": "popup-main",
                    "extensionVersion": "1.4.2", "limit": 3}
            sys.stdout.write(json.dumps(body, separators=(",", ":")) + "\n")
        return
    cats = gen_catalog.categories()
    tops = [p for p, leaf in cats if not leaf]
    leaves = [p for p, leaf in cats if leaf]
    countries = gen_catalog.SELECTED
    weights = [1.0 / (i + 3) for i in range(len(countries))]
    enabled = [p for p in gen_catalog.PLACEMENTS if p[2]]
    for _ in range(args.lines):
        body = {}
        r = rnd.random()
        if r >= 0.2:
            body["category"] = rnd.choice(tops) if r < 0.5 else rnd.choice(leaves)
        body["country"] = rnd.choices(countries, weights)[0]
        body["placement"] = rnd.choices([p[0] for p in enabled], [70, 20, 10][: len(enabled)])[0]
        body["extensionVersion"] = "1.4.2"
        if rnd.random() < 0.5:
            body["limit"] = rnd.randint(1, 8)
        sys.stdout.write(json.dumps(body, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
