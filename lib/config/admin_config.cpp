#include "lib/config/admin_config.h"

#include "lib/config/config_file.h"
#include "lib/config/settings_table.h"
#include "lib/util/read_file.h"

namespace placard::config {

std::string default_admin_config_path(const std::string& config_path) {
  const auto slash = config_path.rfind('/');
  return (slash == std::string::npos ? std::string() : config_path.substr(0, slash + 1)) +
         "placard-admin.conf";
}

void load_admin_config(const std::string& path, ServerConfig& config) {
  const auto text = util::read_whole_file(path);
  if (!text) throw ConfigError("cannot read admin config file " + path);
  try {
    for (const auto& [key, value] : parse_config_text(*text)) {
      const Setting* setting = find_setting(key);
      if (setting == nullptr || setting->home != SettingHome::admin_file) {
        throw ConfigError("unknown key '" + key +
                          "' (this file holds db.admin_user and db.admin_password only)");
      }
      apply_setting(config, *setting, value);
    }
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

std::string render_admin_config(const DatabaseConfig& db) {
  ServerConfig c;
  c.db = db;
  std::string out =
      "# Placard migration credentials, for placardctl only (migrate, grant, accounts, demo\n"
      "# data). Never readable by the worker or the web server: mode 0600, owned by the\n"
      "# operator. Empty db.admin_user: placardctl connects as the config's db.user.\n";
  for (const auto& s : settings()) {
    if (s.home != SettingHome::admin_file) continue;
    out.append(s.name).append(" = ").append(setting_value(c, s)).append("\n");
  }
  return out;
}

bool has_migration_credentials(const ServerConfig& config) {
  return !config.db.admin_user.empty() || !config.db.admin_password.empty();
}

}  // namespace placard::config
