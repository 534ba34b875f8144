-- Affiliate network import (contract section 8): the categories each network's offers carry, and
-- the Placard category an administrator mapped each one to. Rows are added by the sync as it
-- meets categories; `category_id` NULL = not mapped (offers of it are imported but not served).
-- Append-only: never edited after it is applied.

CREATE TABLE network_categories (
  network ENUM('admitad', 'awin') NOT NULL,
  external_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  name VARCHAR(200) NOT NULL,
  category_id INT UNSIGNED NULL,
  first_seen_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  last_seen_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  updated_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  PRIMARY KEY (network, external_id),
  KEY network_categories_category (category_id),
  CONSTRAINT network_categories_category_fk FOREIGN KEY (category_id) REFERENCES categories (id)
    ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- A sync run as the contract shows it: pages done of pages expected, and offers skipped (a
-- tracking URL that is not http(s)).
ALTER TABLE sync_runs
  ADD COLUMN pages_done INT UNSIGNED NOT NULL DEFAULT 0 AFTER finished_at,
  ADD COLUMN pages_total INT UNSIGNED NULL AFTER pages_done,
  ADD COLUMN offers_skipped INT UNSIGNED NOT NULL DEFAULT 0 AFTER offers_disabled;
