-- The admin API: accounts and sessions as the API keeps them, sign-in throttling by account and
-- by client address, administrator overrides on imported offers, and the settings added since
-- version 1. Applied once by `placardctl migrate`; never edited after that (append-only).

ALTER TABLE accounts
  ADD COLUMN last_sign_in_at DATETIME NULL AFTER approved_by,
  ADD COLUMN revoked_at DATETIME NULL AFTER last_sign_in_at;

-- Idle timeout: a session unused for `sessionIdleMinutes` is gone; `expires_at` is the absolute
-- end (12 hours after sign-in).
ALTER TABLE sessions
  ADD COLUMN last_seen_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() AFTER created_at;

-- Failed sign-ins: per account (NULL for an unknown email) and per client address, kept only as
-- a keyed hash (HMAC-SHA-256), never the address itself.
ALTER TABLE sign_in_failures
  MODIFY account_id BIGINT UNSIGNED NULL,
  ADD COLUMN client_hash BINARY(32) NULL AFTER account_id,
  ADD KEY sign_in_failures_client_time (client_hash, failed_at),
  ADD KEY sign_in_failures_time (failed_at);

-- Audit filters: by resource and by time.
ALTER TABLE audit_log
  ADD KEY audit_log_target (target, at);

-- The fields an administrator changed on an imported offer: later syncs keep them.
ALTER TABLE offers
  ADD COLUMN overrides SET('enabled', 'priority', 'category', 'countries', 'validity') NOT NULL
    DEFAULT '' AFTER valid_until;

INSERT IGNORE INTO settings (name, value) VALUES
  ('sessionIdleMinutes', '30'),
  ('rawEventRetentionDays', '90'),
  ('networkSyncIntervalMinutes', '0');
