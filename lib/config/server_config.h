#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "lib/config/auth_limits.h"
#include "lib/config/metrics_config.h"

namespace placard::config {

struct DatabaseConfig {
  std::string socket;  // unix socket path; when empty, host/port are used
  std::string host = "127.0.0.1";
  int port = 3306;
  std::string name = "placard";
  std::string user = "placard";
  std::string password;
  // For migrations and operator commands (placardctl), from placard-admin.conf
  // (lib/config/admin_config.h); empty admin_user = user. Never in the worker's config.
  std::string admin_user;
  std::string admin_password;
  // How batched impression/click inserts learn which rows were new: "auto" (RETURNING on
  // MariaDB, else a transaction of single-row inserts), "returning" or "transaction".
  std::string event_insert = "auto";
  // TLS to a database over TCP (issue 22, item 9): ssl_verify makes TLS required and checks the
  // server's certificate (chain and host name) against ssl_ca (PEM; else the system's CAs); a
  // server without TLS is refused. ssl_ca needs ssl_verify (a config error otherwise).
  // ssl_cert/ssl_key: a client certificate, when the server asks for one. Unused over the unix
  // socket.
  std::string ssl_ca;
  std::string ssl_cert;
  std::string ssl_key;
  bool ssl_verify = false;
  // Catalog snapshots from a replica (docs/scaling.md): read_host or read_socket set enables it;
  // read_user/read_password empty = user/password; TLS as db.ssl_*. A replica whose catalog
  // version has been behind the primary's for read_max_lag_seconds is passed over for the
  // primary until it is current again. Nothing else reads the replica.
  std::string read_socket;
  std::string read_host;
  int read_port = 3306;
  std::string read_user;
  std::string read_password;
  int read_max_lag_seconds = 1;
};

// Affiliate network import (contract section 8): where the adapters connect. In the config file,
// not the admin API, so a compromised admin session cannot point the server elsewhere.
struct NetworkConfig {
  std::string admitad_api_base = "https://api.admitad.com";  // https, or http to loopback only
  std::string awin_api_base = "https://api.awin.com";
  std::string ca_file;  // an extra CA bundle (PEM); empty = the system's only
  int timeout_seconds = 30;
  // How often each worker checks whether a scheduled sync (networkSyncIntervalMinutes) is due.
  int schedule_check_seconds = 60;
  // Offers asked per page (0: each network's default, Admitad 500, Awin 200); tests use small
  // pages.
  int page_size = 0;
  // Caps of one sync run (issue 22, item 10): the offers pulled and the bytes of the answers read,
  // held in the worker's memory until the run is applied. Past either, the run fails and the
  // catalog is left as it was.
  int max_sync_offers = 200000;
  int max_sync_bytes = 256 * 1024 * 1024;
};

// Everything the server config file holds. Secrets live here, never in the database.
struct ServerConfig {
  std::string listen;  // "unix:/path", "127.0.0.1:port", or empty (socket on fd 0 / CGI)
  unsigned socket_mode = 0660;
  std::string socket_group;  // group of the unix socket (the web server's); empty: the worker's
  int threads = 8;
  // Threads that accept requests and read their bodies before a request thread sees them
  // (0: eight per request thread, at least 32; the socket on fd 0: one per request thread).
  int intake_threads = 0;
  int body_timeout_ms = 5000;  // from accept to a body's last byte; later: 408 request_timeout
  std::string log_file;        // empty = standard error
  DatabaseConfig db;
  std::string token_keys;        // "kid:base64url[,kid:base64url]"
  std::string token_active_key;  // kid that signs
  std::string credentials_key;   // "kid:base64url" AES-256 key for network credentials
  int catalog_poll_ms = 250;
  // How often each worker deletes raw events past their retention (0: never; the first pass
  // runs shortly after start). One pass at a time across hosts (a database lock).
  int retention_interval_seconds = 600;
  // How old a span the rollup counted is when it is looked at again for rows that appeared in it
  // since (late commits: lib/jobs/late_rows.h); longer than the database's longest commit pause.
  int rollup_late_check_seconds = 60;
  // Who runs the background work (rollups, retention, scheduled syncs): "workers" (each worker
  // process, one at a time across hosts) or "cron" (only placardctl rollup / retention run /
  // sync --due, for hosts whose web server reaps idle workers: mod_fcgid on shared hosting).
  std::string background_jobs = "workers";
  std::string sql_dir;
  NetworkConfig network;
  // Reverse proxies whose X-Forwarded-For names the client (http::TrustedProxies::parse): for
  // the per-client limits and the sign-in throttle. Empty: the web server's peer is the client.
  std::string trusted_proxies;
  AuthLimits auth;  // registration limits and password hashing (registration.*, password_hash.*)
  // Where the service is reached (lib/config/public_address.h): the origin browsers use, checked
  // by the admin API's same-origin rule (empty: admin writes are refused), and the path prefix
  // under which every endpoint lives (empty: the origin's root).
  std::string public_origin;
  std::string base_path;
  // The host's click journal (lib/journal, docs/operations.md): where clicks on valid offers wait
  // while the database is down (empty: no journal, such clicks answer 503), and the bound of all
  // its files together (past it: 503).
  std::string journal_dir = "/var/lib/placard/journal";
  int journal_max_bytes = 64 * 1024 * 1024;
  MetricsConfig metrics;  // GET {base}/metrics: metrics.enabled, metrics.allow, metrics.token
};

// Builds the typed config from parsed keys; unknown keys and bad values throw ConfigError.
ServerConfig server_config_from(const std::map<std::string, std::string>& values);
ServerConfig load_server_config(const std::string& path);

// Serialises a config back to the file format (used by `placardctl init`), without the
// migration credentials (render_admin_config writes those to their own file).
std::string render_server_config(const ServerConfig& config);

}  // namespace placard::config
