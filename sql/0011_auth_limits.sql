-- Registration limits, the sign-in throttle keyed by e-mail and the expiry of unapproved
-- accounts (issue 22, items 1, 3 and 4; docs/hardening.md "Accounts and sign-in").
-- Append-only: never edited after it is applied.

-- One row per registration let through to the password hash (refused ones are deleted again):
-- counted per client (keyed hash of the address, an IPv6 one reduced to its /64) and in total
-- within the last hour. Rows older than a day are swept by the registrations themselves.
CREATE TABLE registration_attempts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  client_hash BINARY(32) NOT NULL,
  attempted_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  KEY registration_attempts_client_time (client_hash, attempted_at),
  KEY registration_attempts_time (attempted_at)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

-- Failed sign-ins also carry a keyed hash of the normalised e-mail (trimmed, ASCII lower case),
-- so that an unknown e-mail is throttled like a known one. A row is written before the password
-- is checked (a reservation) and deleted again when the attempt is refused or succeeds.
ALTER TABLE sign_in_failures
  ADD COLUMN email_hash BINARY(32) NULL AFTER client_hash,
  ADD KEY sign_in_failures_email_time (email_hash, failed_at);

-- Unapproved accounts past registration.pending_days are deleted by the retention job: the
-- audit rows of their failed sign-ins keep their target ("account:<id>") but lose the link.
ALTER TABLE audit_log DROP FOREIGN KEY audit_log_account_fk;
ALTER TABLE audit_log
  ADD CONSTRAINT audit_log_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id)
    ON DELETE SET NULL;
