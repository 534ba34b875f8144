-- Monthly sums of stats_daily, so a report over many months reads one row per item and month
-- instead of one per item and day (a year's report by offer summed 13 million daily rows on its
-- first request: 16 s). The rollup job adds each sealed day (ended more than an hour ago) to its
-- month, a day at a time, and starts a month over when the totals of the days it added change
-- (an event counted late); `stats_months` records how far each month is built and from which
-- totals, so a report uses a month only while they match the whole month's days.
-- Append-only: never edited after it is applied.

CREATE TABLE stats_monthly (
  dim ENUM('offer', 'placement', 'country') NOT NULL,
  month DATE NOT NULL,  -- the month's first day
  item VARCHAR(64) CHARACTER SET ascii NOT NULL,
  impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,
  clicks BIGINT UNSIGNED NOT NULL DEFAULT 0,
  ignored_impressions BIGINT UNSIGNED NOT NULL DEFAULT 0,  -- as in stats_daily (sql/0008)
  ignored_clicks BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (dim, month, item)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE stats_months (
  month DATE NOT NULL PRIMARY KEY,
  days_through DATE NOT NULL,            -- the month's days up to this one are in stats_monthly
  impressions BIGINT UNSIGNED NOT NULL,  -- their daily placement totals when added
  clicks BIGINT UNSIGNED NOT NULL,
  ignored_impressions BIGINT UNSIGNED NOT NULL,
  ignored_clicks BIGINT UNSIGNED NOT NULL,
  built_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()
) ENGINE=InnoDB DEFAULT CHARSET=ascii;
