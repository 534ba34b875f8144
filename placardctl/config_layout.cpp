#include "placardctl/config_layout.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lib/config/admin_config.h"
#include "lib/config/config_edit.h"
#include "lib/util/private_file.h"

namespace placard::ctl {

void replace_keeping_owner(const std::string& path, const std::string& text) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path);
  util::write_private_file(path, text, true);
  if (::chown(path.c_str(), st.st_uid, st.st_gid) != 0 ||
      ::chmod(path.c_str(), st.st_mode & 07777) != 0) {
    throw std::runtime_error("wrote " + path + " but could not give it back its owner and mode");
  }
}

std::string move_migration_credentials(const Context& ctx) {
  std::ifstream in(ctx.config_path);
  if (!in) return {};
  std::stringstream ss;
  ss << in.rdbuf();
  const auto split = config::split_config_keys(ss.str(), {"db.admin_user", "db.admin_password"});
  if (split.removed.empty()) return {};
  std::error_code ec;
  const bool admin_exists = std::filesystem::symlink_status(ctx.admin_config_path, ec).type() !=
                            std::filesystem::file_type::not_found;
  if (!admin_exists) {
    config::DatabaseConfig db;
    const auto value = [&](const char* key) {
      const auto it = split.removed.find(key);
      return it == split.removed.end() ? std::string() : it->second;
    };
    db.admin_user = value("db.admin_user");
    db.admin_password = value("db.admin_password");
    util::write_private_file(ctx.admin_config_path, config::render_admin_config(db), false);
  }
  replace_keeping_owner(ctx.config_path, split.kept);
  return admin_exists ? "config: removed the migration credentials from " + ctx.config_path + " (" +
                            ctx.admin_config_path + " has them already)"
                      : "config: moved the migration credentials from " + ctx.config_path + " to " +
                            ctx.admin_config_path + " (0600)";
}

}  // namespace placard::ctl
