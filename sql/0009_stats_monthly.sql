-- Monthly sums of stats_daily, so a report over many months reads one row per item and month
-- instead of one per item and day (a year's report by offer summed 13 million daily rows on its
-- first request: 16 s). The rollup job builds a month once every day of it is sealed (ended
-- more than an hour ago) and rebuilds it when the month's daily totals change (an event counted
-- late); `stats_months` records the totals each month was built from, so a report uses a month
-- only while they still match. Append-only: never edited after it is applied.

CREATE TABLE stats_monthly (
  dim ENUM('offer', 'placement', 'country') NOT NULL,
  month DATE NOT NULL,  -- the month's first day
  item VARCHAR(64) CHARACTER SET ascii NOT NULL,
  impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,
  clicks BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (dim, month, item)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE stats_months (
  month DATE NOT NULL PRIMARY KEY,
  impressions BIGINT UNSIGNED NOT NULL,  -- the month's daily placement totals when built
  clicks BIGINT UNSIGNED NOT NULL,
  built_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()
) ENGINE=InnoDB DEFAULT CHARSET=ascii;
