#pragma once
#include <string>

#include "lib/config/server_config.h"

namespace placard::config {

// The migration credentials (a database user that may change the schema and grant privileges)
// live in their own file, read by placardctl only: `db.admin_user` and `db.admin_password`,
// nothing else. The worker's config never holds them (see has_migration_credentials).

// placard-admin.conf in the directory of the worker's config file.
std::string default_admin_config_path(const std::string& config_path);

// Reads the admin file into config.db.admin_user / admin_password. Throws ConfigError for a
// key other than those two (a worker setting put there by mistake would be ignored silently).
void load_admin_config(const std::string& path, ServerConfig& config);

// The admin file's text for these credentials.
std::string render_admin_config(const DatabaseConfig& db);

// True when a config holds migration credentials: the worker refuses to start with them.
bool has_migration_credentials(const ServerConfig& config);

}  // namespace placard::config
