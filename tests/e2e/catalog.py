"""The one fixture catalog of the test suites: the rows they load into a fresh stack and the SQL
that writes them. Every suite takes its catalog from here:

- the e2e suite (and the suites built on its harness): `fixture_sql()`, ids >= 1000;
- the browser and extension suites (tests/browser/fixtures.mjs runs `python3 catalog.py browser`
  for the SQL and `python3 catalog.py browser --json` for the values the tests look for);
- single rows a test adds on top: `offer()` + `offer_insert_sql()`, `category_insert_sql()`.

Python 3 standard library only; no stack needed (text in, SQL text out).
"""

import json
import sys


def sql_str(value):
    if value is None:
        return "NULL"
    return "'" + str(value).replace("\\", "\\\\").replace("'", "''") + "'"


# --------------------------------------------------------------------------------------------
# Row writers

def country_upsert_sql(code, name, selected):
    return ("INSERT INTO countries (code, name, selected) VALUES (%s, %s, %d) "
            "ON DUPLICATE KEY UPDATE selected=VALUES(selected)" % (sql_str(code), sql_str(name), selected))


def placement_insert_sql(pid, name, max_offers, enabled):
    return ("INSERT INTO placements (id, name, max_offers, enabled) VALUES (%d, %s, %d, %d)"
            % (pid, sql_str(name), max_offers, enabled))


def category_insert_sql(cid, path, parent, name, icon, order, enabled):
    return ("INSERT INTO categories (id, path, parent_id, name, icon, display_order, enabled) "
            "VALUES (%d, %s, %s, %s, %s, %d, %d)"
            % (cid, sql_str(path), "NULL" if parent is None else parent, sql_str(name),
               sql_str(icon), order, enabled))


def setting_upsert_sql(name, value):
    return ("INSERT INTO settings (name, value) VALUES (%s, %s) ON DUPLICATE KEY UPDATE "
            "value=VALUES(value)" % (sql_str(name), sql_str(value)))


NOW = "UTC_TIMESTAMP()"


def offer(id, category, priority=0, network="manual", title=None, description=None, merchant=None,
          image=None, coupon=None, enabled=1, demo=0, tracking="default", valid_from=None,
          valid_until=None, countries=("DE",)):
    """An offer row; `category` is a path of the catalog's categories (cat_ids) or an id;
    valid_from/valid_until are SQL expressions (e.g. NOW + " + INTERVAL 4 SECOND")."""
    if tracking == "default":
        tracking = None if demo else "https://merchant.example/o/%d" % id
    return dict(id=id, category=category, priority=priority, network=network,
                title=title or "Offer %d" % id, description=description, merchant=merchant,
                image=image, coupon=coupon, enabled=enabled, demo=demo, tracking=tracking,
                valid_from=valid_from, valid_until=valid_until, countries=countries)


def offer_insert_sql(o, cat_ids=None):
    """The offer's row and its countries; `cat_ids` maps category paths to ids (the e2e catalog's
    by default)."""
    cat = o["category"] if isinstance(o["category"], int) else (cat_ids or CAT_ID)[o["category"]]
    sql = ("INSERT INTO offers (id, network, external_id, title, description, merchant, image_url, "
           "coupon_code, category_id, priority, enabled, is_demo, tracking_url, valid_from, valid_until) "
           "VALUES (%d, %s, %s, %s, %s, %s, %s, %s, %d, %d, %d, %d, %s, %s, %s)"
           % (o["id"], sql_str(o["network"]),
              "NULL" if o["network"] == "manual" else sql_str("ext-%d" % o["id"]),
              sql_str(o["title"]), sql_str(o["description"]), sql_str(o["merchant"]),
              sql_str(o["image"]), sql_str(o["coupon"]), cat, o["priority"],
              o["enabled"], o["demo"], sql_str(o["tracking"]), o["valid_from"] or "NULL",
              o["valid_until"] or "NULL"))
    for c in o["countries"]:
        sql += ";\nINSERT INTO offer_countries (offer_id, country_code) VALUES (%d, %s)" % (o["id"], sql_str(c))
    return sql


# --------------------------------------------------------------------------------------------
# The e2e suite's catalog (ids >= 1000), loaded once per stack.

DEFAULT_SETTINGS = {
    "available": "true",
    "refreshIntervalSeconds": "900",
    "minExtensionVersion": "1.0.0",
    "allowedClientOrigins": "[]",
    "tokenTtlSeconds": "86400",
    "publicOrigin": "",
}

COUNTRIES = [("US", "United States", 1), ("DE", "Germany", 1), ("FR", "France", 1),
             ("GB", "United Kingdom", 0), ("IT", "Italy", 0)]
SELECTED_COUNTRIES = ["DE", "FR", "US"]

# id, name, max_offers, enabled
PLACEMENTS = [(1000, "sidebar", 3, 1), (1001, "popup-main", 6, 1), (1002, "banner-off", 5, 0),
              (1003, "wide", 20, 1)]
CONFIG_PLACEMENTS = [{"name": "popup-main", "maxOffers": 6}, {"name": "sidebar", "maxOffers": 3},
                     {"name": "wide", "maxOffers": 20}]

FASHION_NAME = 'Mode & Stil \u2013 \u00c4pfel "quoted" <b>'

# id, path, parent id, name, icon, display order, enabled
CATEGORIES = [
    (1000, "electronics", None, "Electronics", "plug", 10, 1),
    (1001, "electronics.phones", 1000, "Phones", "phone", 20, 1),
    (1002, "electronics.audio", 1000, "Audio", "headphones", 10, 1),
    (1003, "electronics.audio.headphones", 1002, "Headphones", "headset", 5, 1),
    (1004, "electronics.audio.headphones.wireless", 1003, "Wireless", "wifi", 0, 1),
    (1005, "electronics.tv", 1000, "TV", "tv", 15, 0),
    (1006, "electronics.tv.oled", 1005, "OLED", "oled", 1, 1),
    (1007, "electronics.cameras", 1000, "Cameras", "camera", 20, 1),
    (1008, "fashion", None, FASHION_NAME, "shirt", 5, 1),
    (1009, "books", None, "Books", "book", 10, 1),
    (1010, "garden", None, "Garden", "leaf", 1, 0),
    (1011, "garden.tools", 1010, "Tools", "wrench", 1, 1),
    (1012, "toggle", None, "Toggle", "switch", 60, 1),
    (1013, "toggle.child", 1012, "Toggle child", "dot", 1, 1),
    (1014, "rotation", None, "Rotation", "refresh", 70, 1),
    (1015, "rotation.equal", 1014, "Equal", "equals", 1, 1),
    (1016, "bulk", None, "Bulk", "boxes", 80, 1),
    (1017, "clicks", None, "Clicks", "cursor", 90, 1),
    (1018, "timing", None, "Timing", "clock", 95, 1),
    (1019, "empty", None, "Empty", "", 100, 1),
]
CAT_ID = {c[1]: c[0] for c in CATEGORIES}

NOW = "UTC_TIMESTAMP()"

OFFERS = [
    # electronics subtree (DE unless said otherwise); priorities distinct => order is exact
    offer(1000, "electronics.phones", 10, tracking="https://shop.example/phones?ref=placard",
           countries=("DE", "FR")),
    offer(1001, "electronics.audio.headphones", 8, network="admitad", title="Headphones 20% off",
           description="Over-ear, noise cancelling", merchant="Acme Audio",
           image="https://cdn.example/1001.png", coupon="ACME20",
           tracking="https://ad.admitad.example/g/1001abc/", valid_until="'2030-12-31 23:59:59'"),
    offer(1002, "electronics.audio.headphones.wireless", 7, network="awin",
           tracking="https://www.awin1.example/cread.php?awinmid=7&awinaffid=9"),
    offer(1003, "electronics.cameras", 6, countries=("DE", "US")),
    offer(1004, "electronics.audio", 5, demo=1, title="Demo audio offer"),
    offer(1005, "electronics", 9, enabled=0),
    offer(1006, "electronics", 9, valid_until=NOW + " - INTERVAL 1 DAY"),
    offer(1007, "electronics", 9, valid_from=NOW + " + INTERVAL 10 DAY"),
    offer(1008, "electronics.tv", 9),
    offer(1009, "electronics.tv.oled", 9),
    offer(1010, "electronics", 4, countries=("FR",)),
    offer(1011, "electronics", 3, valid_from=NOW + " - INTERVAL 1 DAY",
           valid_until=NOW + " + INTERVAL 30 DAY"),
    offer(1012, "electronics", 2, valid_from=NOW + " - INTERVAL 1 HOUR"),
    offer(1014, "books", 1),
    offer(1015, "books", 0, countries=("FR",)),
    offer(1016, "garden.tools", 50, countries=("FR",)),
    # rotation
    offer(1100, "rotation", 9),
    offer(1101, "rotation.equal", 5),
    offer(1102, "rotation.equal", 5),
    offer(1103, "rotation.equal", 5),
    offer(1104, "rotation.equal", 5),
    offer(1105, "rotation", 1),
]
# bulk: 25 offers, priorities 0..9 with ties
OFFERS += [offer(1200 + i, "bulk", (i * 7) % 10) for i in range(25)]
# clicks and impressions
OFFERS += [
    offer(1300, "clicks", tracking="https://merchant.example/landing?a=1&b=2"),
    offer(1301, "clicks", network="admitad", tracking="https://ad.admitad.example/g/1301/"),
    offer(1302, "clicks", network="admitad",
           tracking="https://ad.admitad.example/g/1302/?ulp=https%3A%2F%2Fm.example%2F"),
    offer(1303, "clicks", network="awin",
           tracking="https://www.awin1.example/cread.php?awinmid=1&awinaffid=2"),
    offer(1304, "clicks", network="awin", tracking="https://awin.example/c/1304"),
    offer(1305, "clicks", tracking="https://merchant.example/1305"),
    offer(1306, "clicks", tracking="https://merchant.example/1306",
           valid_until=NOW + " - INTERVAL 1 HOUR"),
    offer(1307, "clicks", demo=1, title="Demo click offer"),
    offer(1308, "clicks", tracking="javascript:alert(1)"),
    offer(1309, "clicks", tracking="http://merchant.example/plain"),
    offer(1310, "clicks", tracking="https://merchant.example/1310"),
    offer(1311, "clicks", tracking="https://merchant.example/1311"),
]
OFFER = {o["id"]: o for o in OFFERS}


def fixture_sql():
    stmts = [
        "SET FOREIGN_KEY_CHECKS=0",
        "DELETE FROM offer_countries",
        "DELETE FROM offers",
        "DELETE FROM categories",
        "DELETE FROM placements",
        "SET FOREIGN_KEY_CHECKS=1",
        "UPDATE countries SET selected=0",
    ]
    stmts += [country_upsert_sql(*c) for c in COUNTRIES]
    stmts += [placement_insert_sql(*p) for p in PLACEMENTS]
    stmts += [category_insert_sql(*c) for c in CATEGORIES]
    stmts += [offer_insert_sql(o) for o in OFFERS]
    stmts += [setting_upsert_sql(name, value) for name, value in DEFAULT_SETTINGS.items()]
    stmts.append("UPDATE catalog_version SET version=version+1 WHERE id=1")
    return ";\n".join(stmts) + ";"


ELECTRONICS_DE = ["1000", "1001", "1002", "1003", "1004", "1011", "1012"]

# The body of an offer query that the catalog answers (tests change fields of it).
BASE_QUERY = {"country": "DE", "placement": "wide", "extensionVersion": "1.4.2"}


# --------------------------------------------------------------------------------------------
# The browser and extension suites' catalog (tests/browser, tests/extension): small, with markup
# in an offer and an account to prove the admin page escapes it.

XSS = "<img src=x onerror=alert(1)>"
XSS_EMAIL = "probe<img src=x onerror=alert(1)>@example.test"
PLACEMENT = "popup-main"

BROWSER_COUNTRIES = [("AT", "Austria", 0), ("DE", "Germany", 1), ("FR", "France", 1)]
BROWSER_PLACEMENTS = [(1, PLACEMENT, 6, 1), (2, "sidebar", 3, 1)]
BROWSER_CATEGORIES = [
    (1, "electronics", None, "Electronics", "plug", 10, 1),
    (2, "electronics.audio", 1, "Audio", "headphones", 20, 1),
    (3, "electronics.phones", 1, "Phones", "phone", 10, 1),
    (4, "fashion", None, "Fashion", "shirt", 20, 1),
    (5, "fashion.shoes", 4, "Shoes", "shoe", 10, 1),
    (6, "books", None, "Books", "book", 30, 1),
    (7, "garden", None, "Garden", "leaf", 40, 1),
]
BROWSER_OFFERS = [
    offer(1001, 2, 5, title="Acme noise-cancelling headphones", merchant="Acme Audio",
          countries=("DE", "FR"), tracking="http://127.0.0.1:9/acme"),
    offer(1002, 6, 3, title=XSS, merchant=XSS, tracking="http://127.0.0.1:9/probe"),
    offer(1003, 3, 0, network="admitad", title="Imported phone case deal", merchant="Case Shop",
          tracking="http://127.0.0.1:9/case"),
    offer(1004, 5, 1, title="Running shoes 20% off", merchant="Stride", tracking="http://127.0.0.1:9/shoes"),
]
# The extension suite adds a demo offer (no tracking URL) in the fashion category.
EXTENSION_OFFERS = [offer(1005, 4, 0, title="Demo offer", merchant="Example shop", demo=1)]


def browser_sql(extension=False):
    """The browser suite's catalog (with `extension`, the extension suite's: one demo offer more)."""
    stmts = ["UPDATE countries SET selected=0"]
    # Present after migration 0004 already; upserted here for a database without it.
    stmts += [country_upsert_sql(*c) for c in BROWSER_COUNTRIES]
    stmts += [placement_insert_sql(*p) for p in BROWSER_PLACEMENTS]
    stmts += [category_insert_sql(*c) for c in BROWSER_CATEGORIES]
    stmts += [offer_insert_sql(o) for o in BROWSER_OFFERS + (EXTENSION_OFFERS if extension else [])]
    # An account whose email holds markup (registration refuses it; the database need not).
    stmts.append("INSERT INTO accounts (email, password_hash, status) VALUES (%s, 'none', 'pending')"
                 % sql_str(XSS_EMAIL))
    stmts.append("UPDATE settings SET value='1.0.0' WHERE name='minExtensionVersion'")
    stmts.append("UPDATE catalog_version SET version=version+1 WHERE id=1")
    return ";\n".join(stmts) + ";\n"


def main(argv):
    """`catalog.py e2e|browser|extension` prints that catalog's SQL; `browser --json` the values
    the browser suite looks for."""
    which = argv[1] if len(argv) > 1 else "e2e"
    if which == "browser" and "--json" in argv:
        sys.stdout.write(json.dumps({"XSS": XSS, "XSS_EMAIL": XSS_EMAIL, "PLACEMENT": PLACEMENT}))
    elif which in ("browser", "extension"):
        sys.stdout.write(browser_sql(extension=which == "extension"))
    elif which == "e2e":
        sys.stdout.write(fixture_sql() + "\n")
    else:
        sys.stderr.write("usage: catalog.py e2e|browser|extension [--json]\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
