#include "lib/config/settings_table.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "lib/config/config_file.h"
#include "lib/config/db_hosts.h"
#include "lib/config/public_address.h"
#include "lib/http/client_address.h"
#include "lib/network/url_policy.h"
#include "lib/util/parse_int.h"

namespace placard::config {

namespace {

// A field of ServerConfig reached through member pointers (&ServerConfig::db, &DatabaseConfig::
// port), read and written as the config file spells it: strings as they are, booleans as
// true/false, file modes in octal, integers in decimal.
template <auto First, auto... Rest, typename T>
auto& at(T& object) {
  if constexpr (sizeof...(Rest) == 0) {
    return object.*First;
  } else {
    return at<Rest...>(object.*First);
  }
}

template <auto... Path>
std::string get(const ServerConfig& c) {
  const auto& f = at<Path...>(c);
  using F = std::remove_cvref_t<decltype(f)>;
  if constexpr (std::is_same_v<F, std::string>) {
    return f;
  } else if constexpr (std::is_same_v<F, bool>) {
    return f ? "true" : "false";
  } else if constexpr (std::is_same_v<F, unsigned>) {  // file modes
    char mode[16];
    std::snprintf(mode, sizeof mode, "0%o", f);
    return mode;
  } else {
    return std::to_string(f);
  }
}

template <auto... Path>
void put(ServerConfig& c, std::string_view checked) {
  auto& f = at<Path...>(c);
  using F = std::remove_cvref_t<decltype(f)>;
  if constexpr (std::is_same_v<F, std::string>) {
    f = checked;
  } else if constexpr (std::is_same_v<F, bool>) {
    f = checked == "true";
  } else if constexpr (std::is_same_v<F, unsigned>) {
    f = util::parse_int_in<unsigned>(checked, 0, 0777, 8).value_or(0);
  } else {
    f = util::parse_int_in<F>(checked, std::numeric_limits<F>::min(), std::numeric_limits<F>::max())
            .value_or(0);
  }
}

template <auto... Path>
Setting text(std::string_view name, std::string_view comment = {}) {
  Setting s;
  s.name = name;
  s.comment = comment;
  s.get = &get<Path...>;
  s.put = &put<Path...>;
  return s;
}

template <auto... Path>
Setting integer(std::string_view name, long long min, long long max,
                std::string_view comment = {}) {
  Setting s = text<Path...>(name, comment);
  s.type = SettingType::integer;
  s.min = min;
  s.max = max;
  return s;
}

template <auto... Path>
Setting choice(std::string_view name, std::vector<std::string_view> choices,
               std::string_view comment = {}) {
  Setting s = text<Path...>(name, comment);
  s.type = SettingType::choice;
  s.choices = std::move(choices);
  return s;
}

template <auto... Path>
Setting checked(std::string_view name, std::string (*check)(std::string_view),
                std::string_view comment = {}) {
  Setting s = text<Path...>(name, comment);
  s.check = check;
  return s;
}

Setting secret(Setting s) {
  s.secret = true;
  return s;
}

Setting init(Setting s) {
  s.init_option = true;
  return s;
}

Setting in_admin_file(Setting s) {
  s.home = SettingHome::admin_file;
  return s;
}

std::string api_base(std::string_view value) {
  if (!network::valid_api_base(std::string(value))) {
    throw std::invalid_argument(
        "expected an https:// URL (http:// only for 127.0.0.1, ::1 or localhost), without query");
  }
  return network::normalize_api_base(std::string(value));
}

std::string proxies(std::string_view value) {
  (void)http::TrustedProxies::parse(std::string(value));  // throws std::invalid_argument
  return std::string(value);
}

// metrics.token: empty (none), or 16 to 256 printable characters without spaces.
std::string bearer_token(std::string_view value) {
  const bool printable =
      std::all_of(value.begin(), value.end(), [](char c) { return c > ' ' && c < 127; });
  if (!value.empty() && (value.size() < 16 || value.size() > 256 || !printable)) {
    throw std::invalid_argument("expected 16 to 256 printable characters without spaces");
  }
  return std::string(value);
}

// db.host: one node or several (tried in order, lib/db/mysql_session.cpp), stored normalized.
std::string db_hosts(std::string_view value) {
  return normalize_db_hosts(value);  // throws std::invalid_argument
}

std::string origin(std::string_view value) {
  if (value.empty()) return {};
  if (auto error = check_public_origin(value); !error.empty()) {
    throw std::invalid_argument(error);
  }
  return normalize_public_origin(value);
}

std::string path_prefix(std::string_view value) {
  if (auto error = check_base_path(value); !error.empty()) throw std::invalid_argument(error);
  return std::string(value);
}

using C = ServerConfig;
using D = DatabaseConfig;
using N = NetworkConfig;
using A = AuthLimits;
using M = MetricsConfig;

std::vector<Setting> make_settings() {
  Setting mode = init(text<&C::socket_mode>("socket_mode"));
  mode.type = SettingType::file_mode;
  Setting ssl_verify = text<&C::db, &D::ssl_verify>("db.ssl_verify");
  ssl_verify.type = SettingType::boolean;
  Setting metrics_enabled = text<&C::metrics, &M::enabled>(
      "metrics.enabled",
      "\n# GET {base}/metrics (Prometheus text format): off unless enabled; only to clients in\n"
      "# metrics.allow (addresses or CIDR ranges; empty: any) with the bearer token when set.\n");
  metrics_enabled.type = SettingType::boolean;
  return {
      init(text<&C::listen>("listen")),
      mode,
      init(text<&C::socket_group>("socket_group")),
      init(integer<&C::threads>("threads", 1, 256)),
      integer<&C::intake_threads>("intake_threads", 0, 4096),
      integer<&C::body_timeout_ms>("body_timeout_ms", 100, 60000),
      init(text<&C::log_file>("log_file")),
      init(text<&C::sql_dir>("sql_dir")),
      integer<&C::catalog_poll_ms>("catalog.poll_ms", 10, 60000),
      integer<&C::retention_interval_seconds>("retention.interval_seconds", 0, 7LL * 86400),
      integer<&C::rollup_late_check_seconds>("rollup.late_check_seconds", 1, 86400),
      choice<&C::background_jobs>(
          "background_jobs", {"workers", "cron"},
          "# workers: each worker runs rollups, retention and scheduled syncs; cron: only\n"
          "# placardctl rollup / retention run / sync --due do (web servers that reap idle "
          "workers).\n"),
      init(text<&C::db, &D::socket>("db.socket", "\n")),
      init(checked<&C::db, &D::host>(
          "db.host", &db_hosts,
          "# db.host may list several nodes of one cluster (Galera), host or host:port,\n"
          "# comma-separated: tried in that order; one that failed is skipped for 10 s.\n")),
      init(integer<&C::db, &D::port>("db.port", 1, 65535)),
      init(text<&C::db, &D::name>("db.name")),
      init(text<&C::db, &D::user>("db.user")),
      secret(text<&C::db, &D::password>("db.password")),
      init(in_admin_file(text<&C::db, &D::admin_user>("db.admin_user"))),
      in_admin_file(secret(text<&C::db, &D::admin_password>("db.admin_password"))),
      choice<&C::db, &D::event_insert>("db.event_insert", {"auto", "returning", "transaction"}),
      text<&C::db, &D::ssl_ca>(
          "db.ssl_ca",
          "# TLS to a database over TCP: the CA file, and whether its certificate is verified\n"
          "# (either one makes TLS required); a client certificate and key when asked for.\n"),
      ssl_verify,
      text<&C::db, &D::ssl_cert>("db.ssl_cert"),
      text<&C::db, &D::ssl_key>("db.ssl_key"),
      text<&C::db, &D::read_socket>(
          "db.read_socket",
          "# Catalog snapshots from a replica (empty read_host and read_socket: none); the\n"
          "# primary serves them while the replica is more than read_max_lag_seconds behind.\n"),
      text<&C::db, &D::read_host>("db.read_host"),
      integer<&C::db, &D::read_port>("db.read_port", 1, 65535),
      text<&C::db, &D::read_user>("db.read_user"),
      secret(text<&C::db, &D::read_password>("db.read_password")),
      integer<&C::db, &D::read_max_lag_seconds>("db.read_max_lag_seconds", 0, 86400),
      secret(text<&C::token_keys>(
          "token.keys",
          "\n# HMAC keys for impression and click tokens; the active one signs, all verify.\n")),
      text<&C::token_active_key>("token.active_key"),
      secret(text<&C::credentials_key>(
          "credentials.key",
          "# AES-256-GCM key for affiliate network credentials stored in the "
          "database.\n")),
      checked<&C::network, &N::admitad_api_base>(
          "network.admitad.api_base", &api_base,
          "\n# Affiliate networks: API addresses (https; http only to this machine), an extra CA\n"
          "# bundle (optional), and the timeout of each request in seconds.\n"),
      checked<&C::network, &N::awin_api_base>("network.awin.api_base", &api_base),
      text<&C::network, &N::ca_file>("network.ca_file"),
      integer<&C::network, &N::timeout_seconds>("network.timeout_seconds", 1, 600),
      integer<&C::network, &N::schedule_check_seconds>("network.schedule_check_seconds", 1, 3600),
      integer<&C::network, &N::page_size>("network.page_size", 0, 500),
      integer<&C::network, &N::max_sync_offers>("network.max_sync_offers", 1, 10000000),
      integer<&C::network, &N::max_sync_bytes>("network.max_sync_bytes", 4096, INT_MAX),
      checked<&C::trusted_proxies>(
          "trusted_proxies", &proxies,
          "\n# Reverse proxies in front of the web server whose X-Forwarded-For is believed\n"
          "# (addresses or CIDR ranges, comma-separated; empty: none, the peer is the client).\n"),
      init(checked<&C::public_origin>(
          "public_origin", &origin,
          "\n# The origin browsers reach this service at, scheme://host[:port] (admin writes are\n"
          "# refused until it is set), and the path it lives under (empty: the root; e.g. "
          "/offers).\n")),
      init(checked<&C::base_path>("base_path", &path_prefix)),
      text<&C::journal_dir>(
          "journal.dir",
          "\n# Click journal: while the database is down, clicks on valid offers are kept here\n"
          "# (fsync'd; empty: none, they answer 503) and written once when it returns; the bound\n"
          "# of its files together, in bytes.\n"),
      integer<&C::journal_max_bytes>("journal.max_bytes", 65536, INT_MAX),
      integer<&C::auth, &A::registrations_per_client_per_hour>(
          "registration.per_client_per_hour", 1, 1000000,
          "\n# Registration limits and password hashing (docs/hardening.md): registrations per "
          "client\n"
          "# and hour, in total per hour, pending accounts at most, days before an unapproved "
          "account\n"
          "# is removed; password hashes at once per worker process, requests that may wait for "
          "one,\n"
          "# and how long (ms).\n"),
      integer<&C::auth, &A::registrations_per_hour>("registration.per_hour", 1, 1000000),
      integer<&C::auth, &A::max_pending_accounts>("registration.max_pending", 1, 1000000),
      integer<&C::auth, &A::pending_days>("registration.pending_days", 1, 3650),
      integer<&C::auth, &A::hash_concurrency>("password_hash.concurrency", 1, 64),
      integer<&C::auth, &A::hash_queue>("password_hash.queue", 0, 256),
      integer<&C::auth, &A::hash_wait_ms>("password_hash.wait_ms", 0, 10000),
      metrics_enabled,
      checked<&C::metrics, &M::allow>("metrics.allow", &proxies),
      secret(checked<&C::metrics, &M::token>("metrics.token", &bearer_token)),
  };
}

std::string either(const std::vector<std::string_view>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

// The value to store, after the checks of the setting's type; the error says what is expected.
std::string checked_value(const Setting& s, std::string_view value) {
  const std::string key(s.name);
  switch (s.type) {
    case SettingType::integer:
      if (!util::parse_int_in<long long>(value, s.min, s.max)) {
        throw ConfigError(key + ": expected an integer from " + std::to_string(s.min) + " to " +
                          std::to_string(s.max));
      }
      break;
    case SettingType::file_mode:
      if (!util::parse_int_in<unsigned>(value, 0, 0777, 8)) {
        throw ConfigError(key + ": expected an octal file mode such as 0660");
      }
      break;
    case SettingType::boolean:
      if (value != "true" && value != "false") throw ConfigError(key + ": expected true or false");
      break;
    case SettingType::choice:
      if (std::find(s.choices.begin(), s.choices.end(), value) == s.choices.end()) {
        throw ConfigError(key + ": expected " + either(s.choices));
      }
      break;
    case SettingType::text:
      break;
  }
  if (s.check == nullptr) return std::string(value);
  try {
    return s.check(value);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(key + ": " + e.what());
  }
}

}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = make_settings();
  return table;
}

const Setting* find_setting(std::string_view name) {
  const auto& all = settings();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const Setting& s) { return s.name == name; });
  return it == all.end() ? nullptr : &*it;
}

void apply_setting(ServerConfig& config, const Setting& setting, std::string_view value) {
  setting.put(config, checked_value(setting, value));
}

std::string option_name(const Setting& setting) {
  std::string out(setting.name);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '.' || c == '_'; }, '-');
  return out;
}

std::string setting_value(const ServerConfig& config, const Setting& setting) {
  return setting.get(config);
}

std::string default_value(const Setting& setting) {
  return setting.get(ServerConfig{});
}

}  // namespace placard::config
