-- Placard schema, version 1. InnoDB, utf8mb4; all DATETIME columns hold UTC.
-- Applied once by `placardctl migrate`, recorded in schema_migrations.

CREATE TABLE settings (
  name VARCHAR(64) NOT NULL PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row. Every change to what the catalog snapshot holds (settings, countries, categories,
-- placements, offers) increments it in the same transaction; workers poll it and rebuild.
CREATE TABLE catalog_version (
  id TINYINT UNSIGNED NOT NULL PRIMARY KEY,
  version BIGINT UNSIGNED NOT NULL,
  changed_at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO catalog_version (id, version) VALUES (1, 1);

CREATE TABLE countries (
  code CHAR(2) CHARACTER SET ascii NOT NULL PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  selected BOOLEAN NOT NULL DEFAULT FALSE,
  CONSTRAINT countries_code_form CHECK (code REGEXP '^[A-Z]{2}$')
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE categories (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  path VARCHAR(131) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  parent_id INT UNSIGNED NULL,
  name VARCHAR(100) NOT NULL,
  icon VARCHAR(64) NOT NULL DEFAULT '',
  display_order INT NOT NULL DEFAULT 0,
  enabled BOOLEAN NOT NULL DEFAULT TRUE,
  created_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  updated_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  UNIQUE KEY categories_path (path),
  KEY categories_parent (parent_id),
  CONSTRAINT categories_parent_fk FOREIGN KEY (parent_id) REFERENCES categories (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE placements (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  max_offers TINYINT UNSIGNED NOT NULL,
  enabled BOOLEAN NOT NULL DEFAULT TRUE,
  created_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  updated_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  UNIQUE KEY placements_name (name),
  CONSTRAINT placements_max_offers CHECK (max_offers BETWEEN 1 AND 20)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE offers (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  network ENUM('manual', 'admitad', 'awin') NOT NULL DEFAULT 'manual',
  external_id VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NULL,
  title VARCHAR(200) NOT NULL,
  description TEXT NULL,
  merchant VARCHAR(200) NULL,
  image_url VARCHAR(2048) NULL,
  coupon_code VARCHAR(64) NULL,
  category_id INT UNSIGNED NOT NULL,
  priority INT NOT NULL DEFAULT 0,
  enabled BOOLEAN NOT NULL DEFAULT TRUE,
  is_demo BOOLEAN NOT NULL DEFAULT FALSE,
  tracking_url VARCHAR(2048) NULL,
  valid_from DATETIME NULL,
  valid_until DATETIME NULL,
  created_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  updated_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  UNIQUE KEY offers_network_external (network, external_id),
  KEY offers_category (category_id),
  KEY offers_enabled_until (enabled, valid_until),
  CONSTRAINT offers_category_fk FOREIGN KEY (category_id) REFERENCES categories (id),
  CONSTRAINT offers_demo_has_no_tracking CHECK (is_demo = FALSE OR tracking_url IS NULL),
  CONSTRAINT offers_window CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_from < valid_until)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE offer_countries (
  offer_id BIGINT UNSIGNED NOT NULL,
  country_code CHAR(2) CHARACTER SET ascii NOT NULL,
  PRIMARY KEY (offer_id, country_code),
  KEY offer_countries_country (country_code, offer_id),
  CONSTRAINT offer_countries_offer_fk FOREIGN KEY (offer_id) REFERENCES offers (id) ON DELETE CASCADE,
  CONSTRAINT offer_countries_country_fk FOREIGN KEY (country_code) REFERENCES countries (code)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

-- Raw events. A token's 16-byte nonce is its identity: the unique key makes retries,
-- concurrent duplicates and repeats after restarts count once. Few indexes, as every one costs
-- each insert: reports read rollups built incrementally by id, not the raw rows by time.
CREATE TABLE impressions (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  token_nonce BINARY(16) NOT NULL,
  offer_id BIGINT UNSIGNED NOT NULL,
  placement VARCHAR(64) CHARACTER SET ascii NOT NULL,
  country CHAR(2) CHARACTER SET ascii NOT NULL,
  issued_at DATETIME NOT NULL,
  recorded_at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3),
  UNIQUE KEY impressions_token (token_nonce),
  KEY impressions_offer_time (offer_id, recorded_at)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE clicks (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  token_nonce BINARY(16) NOT NULL,
  offer_id BIGINT UNSIGNED NOT NULL,
  placement VARCHAR(64) CHARACTER SET ascii NOT NULL,
  country CHAR(2) CHARACTER SET ascii NOT NULL,
  issued_at DATETIME NOT NULL,
  clicked_at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3),
  UNIQUE KEY clicks_token (token_nonce),
  KEY clicks_offer_time (offer_id, clicked_at)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE accounts (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(254) NOT NULL,
  password_hash VARCHAR(255) CHARACTER SET ascii NOT NULL,
  status ENUM('pending', 'approved', 'revoked') NOT NULL DEFAULT 'pending',
  created_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  approved_at DATETIME NULL,
  approved_by BIGINT UNSIGNED NULL,
  UNIQUE KEY accounts_email (email),
  CONSTRAINT accounts_approved_by_fk FOREIGN KEY (approved_by) REFERENCES accounts (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Only SHA-256 of the session token is stored.
CREATE TABLE sessions (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  token_hash BINARY(32) NOT NULL,
  account_id BIGINT UNSIGNED NOT NULL,
  created_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  expires_at DATETIME NOT NULL,
  UNIQUE KEY sessions_token (token_hash),
  KEY sessions_account (account_id),
  KEY sessions_expires (expires_at),
  CONSTRAINT sessions_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE sign_in_failures (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_id BIGINT UNSIGNED NOT NULL,
  failed_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  KEY sign_in_failures_account_time (account_id, failed_at),
  CONSTRAINT sign_in_failures_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE audit_log (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_id BIGINT UNSIGNED NULL,
  at DATETIME(3) NOT NULL DEFAULT UTC_TIMESTAMP(3),
  action VARCHAR(64) NOT NULL,
  target VARCHAR(255) NOT NULL,
  before_json LONGTEXT NULL,
  after_json LONGTEXT NULL,
  KEY audit_log_time (at),
  KEY audit_log_account (account_id, at),
  CONSTRAINT audit_log_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- AES-256-GCM ciphertext; the key lives only in the server's config file.
CREATE TABLE network_credentials (
  network ENUM('admitad', 'awin') NOT NULL PRIMARY KEY,
  key_id VARCHAR(16) CHARACTER SET ascii NOT NULL,
  iv BINARY(12) NOT NULL,
  ciphertext VARBINARY(4096) NOT NULL,
  tag BINARY(16) NOT NULL,
  updated_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  updated_by BIGINT UNSIGNED NULL,
  CONSTRAINT network_credentials_by_fk FOREIGN KEY (updated_by) REFERENCES accounts (id)
) ENGINE=InnoDB DEFAULT CHARSET=ascii;

CREATE TABLE sync_runs (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  network ENUM('admitad', 'awin') NOT NULL,
  status ENUM('running', 'succeeded', 'failed') NOT NULL DEFAULT 'running',
  started_at DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  finished_at DATETIME NULL,
  offers_seen INT UNSIGNED NOT NULL DEFAULT 0,
  offers_created INT UNSIGNED NOT NULL DEFAULT 0,
  offers_updated INT UNSIGNED NOT NULL DEFAULT 0,
  offers_disabled INT UNSIGNED NOT NULL DEFAULT 0,
  message VARCHAR(1000) NULL,
  KEY sync_runs_network_time (network, started_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

INSERT INTO settings (name, value) VALUES
  ('available', 'true'),
  ('refreshIntervalSeconds', '900'),
  ('minExtensionVersion', '1.0.0'),
  ('allowedClientOrigins', '[]'),
  ('tokenTtlSeconds', '86400'),
  ('publicOrigin', '');
