#!/usr/bin/env python3
"""SQL for the benchmark catalog of `make bench` (Python 3 standard library only).

    gen_catalog.py base            countries, categories, placements (a fresh, empty database)
    gen_catalog.py offers N        replaces every offer by N generated ones

The output is fed to the `mariadb` client as the database's administrator; scripts/bench.sh then
runs `placardctl catalog bump` (the one place that bumps the catalog version) so that the worker
rebuilds its snapshot. Generation happens
inside MariaDB: INSERT ... SELECT over the Sequence engine (`seq_1_to_N`), so 100,000 offers take
seconds. Every value is a deterministic function of the offer id (CRC32 of a salted id), so two
runs load the same catalog.

Shape (see docs/performance.md):
- 40 countries, 30 of them selected; offers are available in 1..4 distinct countries, the first
  one skewed towards the popular countries at the front of the list;
- 20 top-level categories with 8 children each (180); 30% of the offers sit on a top-level
  category, 70% on a leaf, skewed towards the first categories;
- priority: many equal values (55% 0, 25% 10, 12% 20, 5% 50, 3% 100), so rotation matters;
- 3% disabled, 2% demonstration records (no tracking URL), 4% expired, 3% not valid yet, the rest
  valid now (half of them with open bounds);
- networks: a third each manual, Admitad, Awin (tracking URLs on track.example).
"""

import sys

SELECTED = [
    "DE", "US", "GB", "FR", "IT", "ES", "NL", "PL", "AT", "CH",
    "BE", "SE", "DK", "NO", "FI", "IE", "PT", "CZ", "SK", "HU",
    "RO", "BG", "GR", "CA", "AU", "BR", "MX", "JP", "IN", "TR",
]
NAMES = {
    "DE": "Germany", "US": "United States", "GB": "United Kingdom", "FR": "France",
    "IT": "Italy", "ES": "Spain", "NL": "Netherlands", "PL": "Poland", "AT": "Austria",
    "CH": "Switzerland", "BE": "Belgium", "SE": "Sweden", "DK": "Denmark", "NO": "Norway",
    "FI": "Finland", "IE": "Ireland", "PT": "Portugal", "CZ": "Czechia", "SK": "Slovakia",
    "HU": "Hungary", "RO": "Romania", "BG": "Bulgaria", "GR": "Greece", "CA": "Canada",
    "AU": "Australia", "BR": "Brazil", "MX": "Mexico", "JP": "Japan", "IN": "India",
    "TR": "Türkiye", "AR": "Argentina", "CL": "Chile", "CN": "China", "KR": "South Korea",
    "NZ": "New Zealand", "ZA": "South Africa", "SG": "Singapore", "AE": "United Arab Emirates",
    "IL": "Israel", "UA": "Ukraine",
}
NOT_SELECTED = ["AR", "CL", "CN", "KR", "NZ", "ZA", "SG", "AE", "IL", "UA"]

# 20 top-level categories, 8 children each: (path, name, icon, [(child, name), ...]).
TREE = [
    ("electronics", "Electronics", "plug", ["phones", "laptops", "audio", "cameras", "tv", "gaming", "smart-home", "accessories"]),
    ("fashion", "Fashion", "shirt", ["women", "men", "kids", "shoes", "bags", "jewelry", "watches", "sportswear"]),
    ("home", "Home", "house", ["kitchen", "garden", "furniture", "decor", "bedding", "lighting", "tools", "cleaning"]),
    ("books", "Books", "book", ["fiction", "non-fiction", "children", "comics", "ebooks", "audiobooks", "textbooks", "magazines"]),
    ("travel", "Travel", "plane", ["hotels", "flights", "car-rental", "cruises", "packages", "insurance", "rail", "tours"]),
    ("beauty", "Beauty", "sparkles", ["skincare", "makeup", "fragrance", "haircare", "nails", "men", "tools", "wellness"]),
    ("sports", "Sports", "ball", ["running", "cycling", "fitness", "outdoor", "swimming", "team-sports", "winter", "nutrition"]),
    ("toys", "Toys", "puzzle", ["baby", "building", "dolls", "games", "outdoor", "educational", "plush", "vehicles"]),
    ("food", "Food", "utensils", ["groceries", "delivery", "wine", "coffee", "snacks", "organic", "meal-kits", "baking"]),
    ("health", "Health", "heart", ["pharmacy", "vitamins", "medical", "optical", "hearing", "dental", "care", "tests"]),
    ("auto", "Auto", "car", ["parts", "tires", "accessories", "care", "electronics", "tools", "motorcycle", "rental"]),
    ("pets", "Pets", "paw", ["dogs", "cats", "fish", "birds", "small-animals", "food", "toys", "health"]),
    ("office", "Office", "briefcase", ["supplies", "furniture", "printers", "paper", "software", "storage", "writing", "shipping"]),
    ("software", "Software", "code", ["security", "office", "design", "games", "education", "vpn", "cloud", "utilities"]),
    ("finance", "Finance", "coins", ["banking", "cards", "insurance", "loans", "investing", "crypto", "tax", "payments"]),
    ("education", "Education", "school", ["courses", "languages", "coding", "music", "exam-prep", "kids", "degrees", "tutoring"]),
    ("entertainment", "Entertainment", "film", ["streaming", "music", "tickets", "events", "cinema", "theatre", "festivals", "podcasts"]),
    ("diy", "DIY", "hammer", ["power-tools", "hand-tools", "paint", "plumbing", "electrical", "flooring", "wood", "hardware"]),
    ("baby", "Baby", "baby", ["strollers", "car-seats", "nursery", "feeding", "diapers", "clothing", "toys", "safety"]),
    ("gifts", "Gifts", "gift", ["flowers", "cards", "experiences", "personalised", "hampers", "gadgets", "vouchers", "wrapping"]),
]
CHILDREN = 8
PLACEMENTS = [("popup-main", 6, True), ("sidebar", 3, True), ("newtab", 8, True), ("toolbar", 4, False)]


def top_id(i):
    return 1 + i


def leaf_id(i, j):
    return 100 + i * CHILDREN + j


def categories():
    """[(path, is_leaf)] of every (enabled) category, for the query mix."""
    out = []
    for path, _name, _icon, children in TREE:
        out.append((path, False))
        out.extend(("%s.%s" % (path, c), True) for c in children)
    return out


def sql_str(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'"


def base_sql():
    rows = ["(%s, %s, %s)" % (sql_str(c), sql_str(NAMES[c]), "TRUE") for c in SELECTED]
    rows += ["(%s, %s, %s)" % (sql_str(c), sql_str(NAMES[c]), "FALSE") for c in NOT_SELECTED]
    out = ["-- make bench: base catalog (generated by bench/gen_catalog.py base)",
           "SET NAMES utf8mb4;",
           "START TRANSACTION;",
           # sql/0004 lists every ISO country already (unselected): set the bench's selection.
           "INSERT INTO countries (code, name, selected) VALUES\n  " + ",\n  ".join(rows) +
           "\nON DUPLICATE KEY UPDATE name = VALUES(name), selected = VALUES(selected);"]
    tops, leaves = [], []
    for i, (path, name, icon, children) in enumerate(TREE):
        assert len(children) == CHILDREN
        tops.append("(%d, %s, NULL, %s, %s, %d, TRUE)" % (top_id(i), sql_str(path), sql_str(name), sql_str(icon), 10 * (i + 1)))
        for j, child in enumerate(children):
            leaves.append("(%d, %s, %d, %s, %s, %d, TRUE)" % (
                leaf_id(i, j), sql_str(path + "." + child), top_id(i),
                sql_str(child.replace("-", " ").title()), sql_str(icon), 10 * (j + 1)))
    cols = "INSERT INTO categories (id, path, parent_id, name, icon, display_order, enabled) VALUES\n  "
    out.append(cols + ",\n  ".join(tops) + ";")
    out.append(cols + ",\n  ".join(leaves) + ";")
    out.append("INSERT INTO placements (name, max_offers, enabled) VALUES\n  " + ",\n  ".join(
        "(%s, %d, %s)" % (sql_str(n), m, "TRUE" if e else "FALSE") for n, m, e in PLACEMENTS) + ";")
    out.append("COMMIT;")
    return "\n".join(out) + "\n"


def offers_sql(n):
    ntop, nleaf = len(TREE), len(TREE) * CHILDREN
    country_list = ", ".join(sql_str(c) for c in SELECTED)
    # h(k): a deterministic 32-bit hash of the offer id, one per attribute.
    h = lambda k: "CRC32(CONCAT('%s', s.seq))" % k  # noqa: E731
    return """-- make bench: {n} offers (generated by bench/gen_catalog.py offers {n})
SET NAMES utf8mb4;
SET @now = UTC_TIMESTAMP();
START TRANSACTION;
DELETE FROM offer_countries;
DELETE FROM offers;
INSERT INTO offers (id, network, external_id, title, description, merchant, image_url,
                    coupon_code, category_id, priority, enabled, is_demo, tracking_url,
                    valid_from, valid_until)
SELECT g.seq,
       g.network,
       IF(g.network = 'manual', NULL, CONCAT('bench-', g.seq)),
       CONCAT('Up to ', 5 + g.h_title % 60, '% off at Merchant ', g.merchant),
       CONCAT('Offer ', g.seq, ': save on selected items, free shipping over ', 20 + g.h_title % 80,
              ' EUR, while stocks last. Terms apply.'),
       CONCAT('Merchant ', g.merchant),
       CONCAT('https://cdn.example/offers/', g.seq, '.jpg'),
       IF(g.h_coupon % 3 = 0, CONCAT('SAVE', g.seq), NULL),
       IF(g.h_cat % 100 < 30,
          {top0} + FLOOR(POW((g.h_which % 10000) / 10000, 1.5) * {ntop}),
          {leaf0} + FLOOR(POW((g.h_which % 10000) / 10000, 1.5) * {nleaf})),
       CASE WHEN g.h_prio % 100 < 55 THEN 0 WHEN g.h_prio % 100 < 80 THEN 10
            WHEN g.h_prio % 100 < 92 THEN 20 WHEN g.h_prio % 100 < 97 THEN 50 ELSE 100 END,
       g.h_state % 100 >= 3,
       g.is_demo,
       IF(g.is_demo, NULL, CONCAT('https://track.example/', g.network, '/go?offer=', g.seq)),
       CASE WHEN g.h_valid % 100 < 4 THEN @now - INTERVAL 90 DAY
            WHEN g.h_valid % 100 < 7 THEN @now + INTERVAL 7 DAY
            WHEN g.h_valid % 2 = 0 THEN NULL
            ELSE @now - INTERVAL 1 DAY END,
       CASE WHEN g.h_valid % 100 < 4 THEN @now - INTERVAL 1 DAY
            WHEN g.h_valid % 100 < 7 THEN @now + INTERVAL 60 DAY
            WHEN g.h_valid % 2 = 0 THEN NULL
            ELSE @now + INTERVAL 365 DAY END
FROM (SELECT s.seq,
             ELT(1 + {h_net} % 3, 'manual', 'admitad', 'awin') AS network,
             1 + {h_merchant} % 2000 AS merchant,
             {h_title} AS h_title, {h_coupon} AS h_coupon, {h_cat} AS h_cat,
             {h_which} AS h_which, {h_prio} AS h_prio, {h_state} AS h_state,
             {h_valid} AS h_valid, ({h_demo} % 100 < 2) AS is_demo
      FROM seq_1_to_{n} s) g;
INSERT INTO offer_countries (offer_id, country_code)
SELECT o.id,
       ELT(1 + (FLOOR(POW((CRC32(CONCAT('c', o.id)) % 10000) / 10000, 2) * 30) + 7 * k.seq) % 30,
           {countries})
FROM offers o JOIN seq_0_to_3 k ON k.seq <= CRC32(CONCAT('n', o.id)) % 4;
COMMIT;
""".format(n=n, top0=top_id(0), leaf0=leaf_id(0, 0), ntop=ntop, nleaf=nleaf, countries=country_list,
           h_net=h("net"), h_merchant=h("m"), h_title=h("t"), h_coupon=h("cp"), h_cat=h("cat"),
           h_which=h("w"), h_prio=h("p"), h_state=h("st"), h_valid=h("v"), h_demo=h("d"))


def main(argv):
    if len(argv) == 2 and argv[1] == "base":
        sys.stdout.write(base_sql())
    elif len(argv) == 3 and argv[1] == "offers" and argv[2].isdigit() and int(argv[2]) >= 1:
        sys.stdout.write(offers_sql(int(argv[2])))
    else:
        sys.stderr.write("usage: gen_catalog.py base | offers N\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
