#include "lib/config/server_config.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "lib/config/config_file.h"
#include "lib/config/listen_address.h"
#include "lib/config/public_address.h"
#include "lib/http/client_address.h"
#include "lib/network/url_policy.h"

namespace placard::config {

namespace {

int to_int(const std::string& key, const std::string& value, int min, int max) {
  int out = 0;
  const auto* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, out);
  if (ec != std::errc{} || ptr != end || out < min || out > max) {
    throw ConfigError(key + ": expected an integer from " + std::to_string(min) + " to " +
                      std::to_string(max));
  }
  return out;
}

unsigned to_mode(const std::string& key, const std::string& value) {
  unsigned out = 0;
  const auto* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, out, 8);
  if (ec != std::errc{} || ptr != end || out > 0777) {
    throw ConfigError(key + ": expected an octal file mode such as 0660");
  }
  return out;
}

std::string to_api_base(const std::string& key, const std::string& value) {
  if (!network::valid_api_base(value)) {
    throw ConfigError(key +
                      ": expected an https:// URL (http:// only for 127.0.0.1, ::1 or "
                      "localhost), without query");
  }
  return network::normalize_api_base(value);
}

}  // namespace

ServerConfig server_config_from(const std::map<std::string, std::string>& values) {
  ServerConfig c;
  for (const auto& [key, value] : values) {
    if (key == "listen") {
      c.listen = value;
    } else if (key == "socket_mode") {
      c.socket_mode = to_mode(key, value);
    } else if (key == "socket_group") {
      c.socket_group = value;
    } else if (key == "threads") {
      c.threads = to_int(key, value, 1, 256);
    } else if (key == "intake_threads") {
      c.intake_threads = to_int(key, value, 0, 4096);
    } else if (key == "body_timeout_ms") {
      c.body_timeout_ms = to_int(key, value, 100, 60000);
    } else if (key == "log_file") {
      c.log_file = value;
    } else if (key == "db.socket") {
      c.db.socket = value;
    } else if (key == "db.host") {
      c.db.host = value;
    } else if (key == "db.port") {
      c.db.port = to_int(key, value, 1, 65535);
    } else if (key == "db.name") {
      c.db.name = value;
    } else if (key == "db.user") {
      c.db.user = value;
    } else if (key == "db.password") {
      c.db.password = value;
    } else if (key == "db.admin_user") {
      c.db.admin_user = value;
    } else if (key == "db.admin_password") {
      c.db.admin_password = value;
    } else if (key == "db.event_insert") {
      if (value != "auto" && value != "returning" && value != "transaction") {
        throw ConfigError(key + ": expected auto, returning or transaction");
      }
      c.db.event_insert = value;
    } else if (key == "db.ssl_ca") {
      c.db.ssl_ca = value;
    } else if (key == "db.ssl_cert") {
      c.db.ssl_cert = value;
    } else if (key == "db.ssl_key") {
      c.db.ssl_key = value;
    } else if (key == "db.ssl_verify") {
      if (value != "true" && value != "false") throw ConfigError(key + ": expected true or false");
      c.db.ssl_verify = value == "true";
    } else if (key == "token.keys") {
      c.token_keys = value;
    } else if (key == "token.active_key") {
      c.token_active_key = value;
    } else if (key == "credentials.key") {
      c.credentials_key = value;
    } else if (key == "catalog.poll_ms") {
      c.catalog_poll_ms = to_int(key, value, 10, 60000);
    } else if (key == "retention.interval_seconds") {
      c.retention_interval_seconds = to_int(key, value, 0, 7 * 86400);
    } else if (key == "background_jobs") {
      if (value != "workers" && value != "cron") {
        throw ConfigError(key + ": expected workers or cron");
      }
      c.background_jobs = value;
    } else if (key == "sql_dir") {
      c.sql_dir = value;
    } else if (key == "network.admitad.api_base") {
      c.network.admitad_api_base = to_api_base(key, value);
    } else if (key == "network.awin.api_base") {
      c.network.awin_api_base = to_api_base(key, value);
    } else if (key == "network.ca_file") {
      c.network.ca_file = value;
    } else if (key == "network.timeout_seconds") {
      c.network.timeout_seconds = to_int(key, value, 1, 600);
    } else if (key == "trusted_proxies") {
      try {
        (void)http::TrustedProxies::parse(value);
      } catch (const std::invalid_argument& e) {
        throw ConfigError(key + ": " + e.what());
      }
      c.trusted_proxies = value;
    } else if (key == "public_origin") {
      if (!value.empty()) {
        if (const auto error = check_public_origin(value); !error.empty()) {
          throw ConfigError(std::string(key).append(": ").append(error));
        }
      }
      c.public_origin = value.empty() ? value : normalize_public_origin(value);
    } else if (key == "base_path") {
      if (const auto error = check_base_path(value); !error.empty()) {
        throw ConfigError(std::string(key).append(": ").append(error));
      }
      c.base_path = value;
    } else if (key == "network.schedule_check_seconds") {
      c.network.schedule_check_seconds = to_int(key, value, 1, 3600);
    } else if (key == "network.page_size") {
      c.network.page_size = to_int(key, value, 0, 500);
    } else if (key == "network.max_sync_offers") {
      c.network.max_sync_offers = to_int(key, value, 1, 10000000);
    } else if (key == "network.max_sync_bytes") {
      c.network.max_sync_bytes = to_int(key, value, 4096, 2147483647);
    } else if (!set_auth_limit(c.auth, key, value) && !set_metrics_key(c.metrics, key, value)) {
      throw ConfigError("unknown key '" + key + "'");
    }
  }
  if (!c.db.ssl_ca.empty() && !c.db.ssl_verify) {
    // Measured (tests/e2e/test_db_tls.py): over MariaDB Connector/C, a CA alone does not make
    // TLS required; only verification does. A CA without it would promise what it does not do.
    throw ConfigError("db.ssl_ca: set db.ssl_verify = true too (without it TLS is not required)");
  }
  if (const auto check = check_listen(c.listen); !check.error.empty()) {
    throw ConfigError(check.error);
  }
  check_metrics_config(c.metrics);
  return c;
}

ServerConfig load_server_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("cannot read config file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return server_config_from(parse_config_text(ss.str()));
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

std::string render_server_config(const ServerConfig& c) {
  char mode[8];
  std::snprintf(mode, sizeof mode, "0%o", c.socket_mode);
  std::ostringstream o;
  o << "# Placard server configuration. Holds secrets: keep it mode 0600, outside any web root.\n"
    << "listen = " << c.listen << "\n"
    << "socket_mode = " << mode << "\n"
    << "socket_group = " << c.socket_group << "\n"
    << "threads = " << c.threads << "\n"
    << "intake_threads = " << c.intake_threads << "\n"
    << "body_timeout_ms = " << c.body_timeout_ms << "\n"
    << "log_file = " << c.log_file << "\n"
    << "sql_dir = " << c.sql_dir << "\n"
    << "catalog.poll_ms = " << c.catalog_poll_ms << "\n"
    << "retention.interval_seconds = " << c.retention_interval_seconds << "\n"
    << "# workers: each worker runs rollups, retention and scheduled syncs; cron: only\n"
    << "# placardctl rollup / retention run / sync --due do (web servers that reap idle workers).\n"
    << "background_jobs = " << c.background_jobs << "\n\n"
    << "db.socket = " << c.db.socket << "\n"
    << "db.host = " << c.db.host << "\n"
    << "db.port = " << c.db.port << "\n"
    << "db.name = " << c.db.name << "\n"
    << "db.user = " << c.db.user << "\n"
    << "db.password = " << c.db.password << "\n"
    << "db.event_insert = " << c.db.event_insert << "\n"
    << "# TLS to a database over TCP: the CA file, and whether its certificate is verified\n"
    << "# (either one makes TLS required); a client certificate and key when asked for.\n"
    << "db.ssl_ca = " << c.db.ssl_ca << "\n"
    << "db.ssl_verify = " << (c.db.ssl_verify ? "true" : "false") << "\n"
    << "db.ssl_cert = " << c.db.ssl_cert << "\n"
    << "db.ssl_key = " << c.db.ssl_key << "\n\n"
    << "# HMAC keys for impression and click tokens; the active one signs, all verify.\n"
    << "token.keys = " << c.token_keys << "\n"
    << "token.active_key = " << c.token_active_key << "\n"
    << "# AES-256-GCM key for affiliate network credentials stored in the database.\n"
    << "credentials.key = " << c.credentials_key << "\n\n"
    << "# Affiliate networks: API addresses (https; http only to this machine), an extra CA\n"
    << "# bundle (optional), and the timeout of each request in seconds.\n"
    << "network.admitad.api_base = " << c.network.admitad_api_base << "\n"
    << "network.awin.api_base = " << c.network.awin_api_base << "\n"
    << "network.ca_file = " << c.network.ca_file << "\n"
    << "network.timeout_seconds = " << c.network.timeout_seconds << "\n"
    << "network.schedule_check_seconds = " << c.network.schedule_check_seconds << "\n"
    << "network.page_size = " << c.network.page_size << "\n"
    << "network.max_sync_offers = " << c.network.max_sync_offers << "\n"
    << "network.max_sync_bytes = " << c.network.max_sync_bytes << "\n"
    << "\n# Reverse proxies in front of the web server whose X-Forwarded-For is believed\n"
    << "# (addresses or CIDR ranges, comma-separated; empty: none, the peer is the client).\n"
    << "trusted_proxies = " << c.trusted_proxies << "\n"
    << "\n# The origin browsers reach this service at, scheme://host[:port] (admin writes are\n"
    << "# refused until it is set), and the path it lives under (empty: the root; e.g. /offers).\n"
    << "public_origin = " << c.public_origin << "\n"
    << "base_path = " << c.base_path << "\n"
    << render_auth_limits(c.auth) << render_metrics_config(c.metrics);

  return o.str();
}

}  // namespace placard::config
