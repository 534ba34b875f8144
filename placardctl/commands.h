#pragma once
// placardctl's commands, one file each (cmd_<name>.cpp); main.cpp dispatches to them.
#include <string>
#include <vector>

#include "lib/config/server_config.h"

namespace placard::ctl {

// What every command gets: the config file's path (--config, $PLACARD_CONFIG or the default).
struct Context {
  std::string config_path;
  config::ServerConfig load() const { return config::load_server_config(config_path); }
};

// The migrations directory: the config's sql_dir, else <binary's dir>/../sql.
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
int cmd_sync(const Context& ctx, const Argv& argv);

}  // namespace placard::ctl
