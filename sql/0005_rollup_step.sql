-- Statistics rollups move out of the event writer's transaction into a rollup step that each
-- worker runs every second (one at a time across hosts): the writer's inserts stay as cheap as
-- before rollups existed. `rollup_progress` holds, per raw table, the highest id already counted
-- in stats_hourly and stats_daily; the step counts the rows above it in the same transaction
-- that moves it, so every row is counted exactly once. Rows recorded before this migration were
-- counted by the writer: counting starts after them. Applied once; never edited (append-only).

CREATE TABLE rollup_progress (
  name VARCHAR(32) CHARACTER SET ascii NOT NULL PRIMARY KEY,  -- impressions | clicks
  last_id BIGINT UNSIGNED NOT NULL,
  rolled_at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

INSERT INTO rollup_progress (name, last_id)
  SELECT 'impressions', COALESCE(MAX(id), 0) FROM impressions;
INSERT INTO rollup_progress (name, last_id)
  SELECT 'clicks', COALESCE(MAX(id), 0) FROM clicks;
