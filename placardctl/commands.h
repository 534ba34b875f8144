#pragma once
// placardctl's commands, one file each (cmd_<name>.cpp); main.cpp dispatches to them.
#include <string>
#include <vector>

#include "lib/config/server_config.h"

namespace placard::ctl {

// What every command gets: the worker's config file (--config, $PLACARD_CONFIG or the default)
// and the migration credentials' own file (--admin-config, $PLACARD_ADMIN_CONFIG, or
// placard-admin.conf beside the config; see lib/config/admin_config.h).
struct Context {
  std::string config_path;
  std::string admin_config_path;
  // The worker's config with db.admin_user / db.admin_password from the admin file when it
  // exists (else placardctl connects as db.user).
  config::ServerConfig load() const;
};

// The migrations directory: the config's sql_dir, else <binary's dir>/../sql (a build tree),
// else <binary's dir>/../share/placard/sql (installed).
std::string sql_dir_of(const config::ServerConfig& c);

using Argv = std::vector<std::string>;

// Each prints its usage for --help and returns the exit status; throws UsageError (exit 2) or
// another exception (exit 1) with a message for the operator.
int cmd_init(const Context& ctx, const Argv& argv);
int cmd_migrate(const Context& ctx, const Argv& argv);
int cmd_demo_data(const Context& ctx, const Argv& argv);
int cmd_account(const Context& ctx, const Argv& argv);
int cmd_check(const Context& ctx, const Argv& argv);
int cmd_catalog(const Context& ctx, const Argv& argv);
int cmd_grant(const Context& ctx, const Argv& argv);
int cmd_retention(const Context& ctx, const Argv& argv);
int cmd_rollup(const Context& ctx, const Argv& argv);
int cmd_sync(const Context& ctx, const Argv& argv);
int cmd_setup(const Context& ctx, const Argv& argv);
int cmd_config(const Context& ctx, const Argv& argv);
int cmd_journal(const Context& ctx, const Argv& argv);

}  // namespace placard::ctl
