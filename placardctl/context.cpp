#include <filesystem>
#include <iostream>

#include "lib/config/admin_config.h"
#include "placardctl/commands.h"

namespace placard::ctl {

config::ServerConfig Context::load() const {
  auto cfg = config::load_server_config(config_path);
  if (config::has_migration_credentials(cfg)) {
    std::cerr << "placardctl: warning: " << config_path
              << " holds db.admin_user/db.admin_password, which the worker refuses: move them to "
              << admin_config_path << "\n";
  }
  std::error_code ec;
  if (std::filesystem::exists(admin_config_path, ec)) {
    config::load_admin_config(admin_config_path, cfg);
  }
  return cfg;
}

std::string sql_dir_of(const config::ServerConfig& c) {
  if (!c.sql_dir.empty()) return c.sql_dir;
  // build/placardctl -> sql/ of the source tree, and so does a sanitizer build's
  // (build/san/placardctl); /usr/bin/placardctl -> /usr/share/placard/sql.
  const auto prefix = std::filesystem::canonical("/proc/self/exe").parent_path().parent_path();
  std::error_code ec;
  if (std::filesystem::is_directory(prefix / "sql", ec)) return (prefix / "sql").string();
  if (prefix.filename() == "build" &&
      std::filesystem::is_directory(prefix.parent_path() / "sql", ec)) {
    return (prefix.parent_path() / "sql").string();
  }
  return (prefix / "share" / "placard" / "sql").string();
}

}  // namespace placard::ctl
