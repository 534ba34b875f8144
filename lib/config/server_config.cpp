#include "lib/config/server_config.h"

#include "lib/config/config_file.h"
#include "lib/config/listen_address.h"
#include "lib/config/settings_table.h"

namespace placard::config {

ServerConfig server_config_from(const std::map<std::string, std::string>& values) {
  ServerConfig c;
  for (const auto& [key, value] : values) {
    const Setting* setting = find_setting(key);
    if (setting == nullptr) throw ConfigError("unknown key '" + key + "'");
    apply_setting(c, *setting, value);
  }
  check_metrics_config(c.metrics);  // the metrics.* keys together
  if (!c.db.ssl_ca.empty() && !c.db.ssl_verify) {
    // Measured (tests/e2e/test_db_tls.py): over MariaDB Connector/C, a CA alone does not make
    // TLS required; only verification does. A CA without it would promise what it does not do.
    throw ConfigError("db.ssl_ca: set db.ssl_verify = true too (without it TLS is not required)");
  }
  if (const auto check = check_listen(c.listen); !check.error.empty()) {
    throw ConfigError(check.error);
  }
  return c;
}

ServerConfig load_server_config(const std::string& path) {
  const std::string text = read_config_file(path);
  try {
    return server_config_from(parse_config_text(text));
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

std::string render_server_config(const ServerConfig& c) {
  std::string out =
      "# Placard server configuration. Holds secrets: keep it mode 0600, outside any web root.\n";
  for (const auto& s : settings()) {
    if (s.home != SettingHome::worker_file) continue;
    out.append(s.comment).append(s.name).append(" = ").append(setting_value(c, s)).append("\n");
  }
  return out;
}

}  // namespace placard::config
