-- Cheaper marks for events over a per-client limit, with the history still bounded (issue 24).
-- Applied once by `placardctl migrate`; never edited after that (append-only).
--
-- * The client keys no longer hold `ignored`. With it in the key, the rollup step's mark of an
--   event over a limit (`ignored = 'rate_limited'`) moved the row's entry in impressions_client or
--   clicks_client (a delete-mark and an insert): about 8 us of the database's CPU per marked row,
--   against about 4 without it (docs/performance.md, "What a mark costs").
-- * Without `ignored` in the key, the history of a client and offer read through that key would
--   hold the marked rows too: a client flooding one offer would make every pass read the whole
--   flood of the last window. So a client and offer that went over a limit lately keeps its
--   counted times here instead (at most a limit's worth), and its history is read from this row,
--   not from the raw table. The other pairs have no marked row within reach, and their history is
--   read through the client key as before (at most a limit's worth of counted rows).
-- * kind, client_hash, offer_id: the pair; counted: its counted times within the longest window,
--   milliseconds since 1970, ascending, comma-separated; window_ms: the longest window they were
--   kept for (a row kept for a shorter window than the settings now ask is dropped, and the pair's
--   history read from the raw table again); last_at: its latest event judged (rows idle for two
--   hours, longer than any window, are deleted by the rollup step).

CREATE TABLE rate_limit_state (
  kind ENUM('impression', 'click') NOT NULL,
  client_hash BINARY(16) NOT NULL,
  offer_id BIGINT UNSIGNED NOT NULL,
  counted MEDIUMTEXT CHARACTER SET ascii NOT NULL,
  window_ms BIGINT NOT NULL,
  last_at DATETIME(3) NOT NULL,
  PRIMARY KEY (kind, client_hash, offer_id),
  KEY rate_limit_state_last (last_at),
  KEY rate_limit_state_window (kind, window_ms)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

ALTER TABLE impressions
  DROP KEY impressions_client,
  ADD KEY impressions_client (client_hash, offer_id, recorded_at);

ALTER TABLE clicks
  DROP KEY clicks_client,
  ADD KEY clicks_client (client_hash, offer_id, clicked_at);
