-- Statistics (contract 6.1): rollups that the event writer keeps current in the same transaction
-- as the raw impressions and clicks it inserts, counting only the rows that were new. Reports
-- read only these tables, never the raw ones, so raw rows can be deleted after the retention
-- period (`rawEventRetentionDays`) without changing any report. Applied once by
-- `placardctl migrate`; never edited after that (append-only).

-- Hour x offer x placement x country: the finest rollup, for detail and for checks.
CREATE TABLE stats_hourly (
  hour DATETIME NOT NULL,  -- UTC, minutes and seconds zero
  offer_id BIGINT UNSIGNED NOT NULL,
  placement VARCHAR(64) CHARACTER SET ascii NOT NULL,
  country CHAR(2) CHARACTER SET ascii NOT NULL,
  impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,
  clicks BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (hour, offer_id, placement, country)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

-- Per UTC day, one row per offer, per placement and per country: what GET /stats reads. Day
-- totals are the sums of a day's placement rows (every event has exactly one placement).
CREATE TABLE stats_daily (
  dim ENUM('offer', 'placement', 'country') NOT NULL,
  day DATE NOT NULL,
  item VARCHAR(64) CHARACTER SET ascii NOT NULL,  -- offer id (decimal), placement or country
  impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,
  clicks BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (dim, day, item)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

-- Retention deletes raw rows by age in small batches: an index on the time makes each batch
-- read only the rows it deletes.
ALTER TABLE impressions ADD KEY impressions_recorded (recorded_at);
ALTER TABLE clicks ADD KEY clicks_clicked (clicked_at);
