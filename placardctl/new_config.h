#pragma once
// The config files `placardctl init` and `placardctl setup` write: from their shared options,
// with freshly generated token and credentials keys.
#include <map>
#include <string>
#include <vector>

#include "lib/config/server_config.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

// The valued options both commands accept (--listen, --db-user, ...).
const std::vector<std::string>& config_options();

// A new config from those options (an option not given takes `defaults`' value for it, keyed by
// the option's name, else the config's own default), with db.password = db_password and new
// keys; db.admin_* from --db-admin-user and admin_password. Validated: ConfigError on bad input.
config::ServerConfig new_config(const Args& a, const std::map<std::string, std::string>& defaults,
                                const std::string& db_password, const std::string& admin_password);

// Writes the worker's file (--config) and the migration credentials' (--admin-config), both
// 0600 through a temporary file; refuses to replace either unless `force`.
void write_configs(const Context& ctx, const config::ServerConfig& cfg, bool force);

// A secret from a file (a password file), without its trailing newline.
std::string read_secret_file(const std::string& path);

// A new random secret: 24 random bytes, base64url.
std::string new_password();

}  // namespace placard::ctl
