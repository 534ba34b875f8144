#include "lib/config/admin_config.h"

#include <fstream>
#include <sstream>

#include "lib/config/config_file.h"

namespace placard::config {

std::string default_admin_config_path(const std::string& config_path) {
  const auto slash = config_path.rfind('/');
  return (slash == std::string::npos ? std::string() : config_path.substr(0, slash + 1)) +
         "placard-admin.conf";
}

void load_admin_config(const std::string& path, ServerConfig& config) {
  std::ifstream in(path);
  if (!in) throw ConfigError("cannot read admin config file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    for (const auto& [key, value] : parse_config_text(ss.str())) {
      if (key == "db.admin_user") {
        config.db.admin_user = value;
      } else if (key == "db.admin_password") {
        config.db.admin_password = value;
      } else {
        throw ConfigError("unknown key '" + key +
                          "' (this file holds db.admin_user and db.admin_password only)");
      }
    }
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

std::string render_admin_config(const DatabaseConfig& db) {
  return "# Placard migration credentials, for placardctl only (migrate, grant, accounts, demo\n"
         "# data). Never readable by the worker or the web server: mode 0600, owned by the\n"
         "# operator. Empty db.admin_user: placardctl connects as the config's db.user.\n"
         "db.admin_user = " +
         db.admin_user + "\ndb.admin_password = " + db.admin_password + "\n";
}

bool has_migration_credentials(const ServerConfig& config) {
  return !config.db.admin_user.empty() || !config.db.admin_password.empty();
}

}  // namespace placard::config
