-- Ignored events once per token (issue 22, item 2): a valid token sent again and again with a
-- crawler User-Agent, as a prefetch or as HEAD wrote one ignored_events row per request, so one
-- token could inflate the "ignored" statistics at will for the retention period. Each new row now
-- carries the token's nonce, and the unique key lets one row exist per token, kind and reason
-- (the event writer inserts with INSERT IGNORE). Rows written before this migration have no
-- nonce (NULL, which a unique key never compares equal) and stay as they are.
-- Append-only: never edited after it is applied.

ALTER TABLE ignored_events
  ADD COLUMN token_nonce BINARY(16) NULL AFTER reason,
  ADD UNIQUE KEY ignored_events_once (token_nonce, kind, reason);
