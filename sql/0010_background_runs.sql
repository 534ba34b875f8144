-- When the background work last ran, so the admin dashboard can say whether rollups, retention
-- and scheduled syncs keep up. On a host where the web server reaps idle workers (mod_fcgid on
-- shared hosting) they run from cron through placardctl instead; a stale time here is how an
-- operator sees that the cron line is missing. One row per job, written by whoever ran it.
-- Plain column types and no expression defaults: the statement reads the same on MySQL 8.
-- Append-only: never edited after it is applied.

CREATE TABLE background_runs (
  job VARCHAR(32) CHARACTER SET ascii NOT NULL PRIMARY KEY,  -- rollup | retention | sync
  ran_at DATETIME NOT NULL,
  ok TINYINT(1) NOT NULL,
  runner VARCHAR(16) CHARACTER SET ascii NOT NULL            -- worker | placardctl
) ENGINE=InnoDB DEFAULT CHARSET=ascii;
