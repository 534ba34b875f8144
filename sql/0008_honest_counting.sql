-- Honest counting (issue 15): impressions and clicks that were answered but not counted.
-- Applied once by `placardctl migrate`; never edited after that (append-only).
--
-- * Counted events stay in `impressions` / `clicks` (their nonce still decides duplicates). Each
--   new row carries `client_hash`: HMAC-SHA-256 of the client address under a key that changes
--   every UTC day, truncated to 16 bytes (the address itself is never stored). The rollup step
--   judges the per-client limits in id order and marks a row over a limit `ignored =
--   'rate_limited'` before it counts the rows; such a row keeps its nonce, so a retry of the same
--   token is still a duplicate.
-- * Prefetches, HEAD requests and known crawlers are not written there at all (their token stays
--   usable by the real view or click): they go to `ignored_events`, without nonce or client.
-- * The rollups count counted and ignored events apart: `ignored_*` columns beside the counted
--   ones, and per reason in `stats_ignored_daily`.

ALTER TABLE impressions
  ADD COLUMN client_hash BINARY(16) NULL AFTER issued_at,
  ADD COLUMN ignored ENUM('prefetch', 'head', 'bot', 'rate_limited') NULL AFTER client_hash,
  ADD KEY impressions_client (client_hash, offer_id, ignored, recorded_at);

ALTER TABLE clicks
  ADD COLUMN client_hash BINARY(16) NULL AFTER issued_at,
  ADD COLUMN ignored ENUM('prefetch', 'head', 'bot', 'rate_limited') NULL AFTER client_hash,
  ADD KEY clicks_client (client_hash, offer_id, ignored, clicked_at);

CREATE TABLE ignored_events (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  kind ENUM('impression', 'click') NOT NULL,
  reason ENUM('prefetch', 'head', 'bot', 'rate_limited') NOT NULL,
  offer_id BIGINT UNSIGNED NOT NULL,
  placement VARCHAR(64) CHARACTER SET ascii NOT NULL,
  country CHAR(2) CHARACTER SET ascii NOT NULL,
  at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3),
  KEY ignored_events_at (at)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

ALTER TABLE stats_hourly
  ADD COLUMN ignored_impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN ignored_clicks BIGINT UNSIGNED NOT NULL DEFAULT 0;

ALTER TABLE stats_daily
  ADD COLUMN ignored_impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN ignored_clicks BIGINT UNSIGNED NOT NULL DEFAULT 0;

-- Ignored events per UTC day, kind and reason (the totals of GET /stats by reason).
CREATE TABLE stats_ignored_daily (
  day DATE NOT NULL,
  kind ENUM('impression', 'click') NOT NULL,
  reason ENUM('prefetch', 'head', 'bot', 'rate_limited') NOT NULL,
  n BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (day, kind, reason)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

INSERT INTO rollup_progress (name, last_id) VALUES ('ignored_events', 0);

INSERT IGNORE INTO settings (name, value) VALUES
  ('clickLimitPerMinute', '1'),
  ('clickLimitPer10Minutes', '3'),
  ('clickLimitPerHour', '10'),
  ('impressionLimitPer5Minutes', '5');
