-- Rows that become visible below the rollup's progress after a pass counted past them (the
-- rollup step's known windows: a multi-row insert that took its ids and then waited on a lock
-- before writing, longer than the settle second; on Galera a write set not yet replicated to the
-- pass's node while the cluster evicts a node). Each pass keeps here which ids of its span
-- (lo, hi] of a raw table it counted; a span is looked at again once it is a minute old
-- (rollup.late_check_seconds), its rows that came later are counted then, once, and the span is
-- deleted in the same transaction (lib/jobs/late_rows.h).
-- * name: the raw table, as in rollup_progress; hi: the span's last id, rollup_progress.last_id
--   after the pass; lo: last_id before it; n: the rows counted.
-- * ids: the counted ids as runs of absent and present ids, zlib-compressed (lib/jobs/id_runs.h):
--   a few bytes for a span without gaps, a few hundred for 50,000 ids of one Galera node.
-- Append-only: never edited after it is applied.

CREATE TABLE rollup_spans (
  name VARCHAR(32) CHARACTER SET ascii NOT NULL,
  hi BIGINT UNSIGNED NOT NULL,
  lo BIGINT UNSIGNED NOT NULL,
  n BIGINT UNSIGNED NOT NULL,
  ids MEDIUMBLOB NOT NULL,
  counted_at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3),
  PRIMARY KEY (name, hi)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;
