// placardctl — the operator's command line: config, migrations, demo data, accounts, checks.
// One file per command (cmd_<name>.cpp); this file finds the config and dispatches.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>

#include "lib/config/admin_config.h"
#include "lib/db/mysql_session.h"
#include "lib/process/core_dumps.h"
#include "lib/util/service_version.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace {

using placard::ctl::Argv;
using placard::ctl::Context;

void usage(std::ostream& out) {
  out << "usage: placardctl [--config PATH] [--admin-config PATH] COMMAND [options]\n"
         "       placardctl --version\n"
         "  (each COMMAND has --help)\n"
         "  setup         database, users, config, migrations, grants, first admin (idempotent)\n"
         "  config        get or set one key of the config file (config get|set|list)\n"
         "  init          write a new config file with fresh secrets\n"
         "  migrate       apply database migrations\n"
         "  demo-data     load the demonstration catalog\n"
         "  account       create, approve or revoke an admin account\n"
         "  check         check the config and the database connection\n"
         "  catalog bump  make workers reload the catalog\n"
         "  grant         give the runtime database user its per-table privileges\n"
         "  retention run delete raw events past their retention now\n"
         "  rollup        count recorded events into the statistics now\n"
         "  sync          import a network's offers now (--network admitad|awin, or --due)\n"
         "  journal       the click journal: status, or replay it now\n"
         "The config path defaults to $PLACARD_CONFIG, then /etc/placard/placard.conf; the\n"
         "migration credentials' file (db.admin_user, db.admin_password) to\n"
         "$PLACARD_ADMIN_CONFIG, then placard-admin.conf beside the config.\n"
         "Exit status 3 from rollup, retention run and sync: not done, another runner holds the\n"
         "lock (on any host); try again later. (setup has its own statuses: setup --help.)\n";
}

}  // namespace

int main(int argc, char** argv) {
  placard::process::forbid_core_dumps();  // it reads passwords and keys (issue 22, item 8)
  namespace ctl = placard::ctl;
  Argv args(argv + 1, argv + argc);
  Context ctx;
  const char* env = std::getenv("PLACARD_CONFIG");  // NOLINT(concurrency-mt-unsafe)
  ctx.config_path = env != nullptr && *env != '\0' ? env : "/etc/placard/placard.conf";
  const char* admin_env = std::getenv("PLACARD_ADMIN_CONFIG");  // NOLINT(concurrency-mt-unsafe)
  // --config PATH and --admin-config PATH are accepted before or after the command.
  for (const auto* option : {"--config", "--admin-config"}) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == option) {
        (args[i] == "--config" ? ctx.config_path : ctx.admin_config_path) = args[i + 1];
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                   args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
        break;
      }
    }
  }
  if (ctx.admin_config_path.empty()) {
    ctx.admin_config_path = admin_env != nullptr && *admin_env != '\0'
                                ? admin_env
                                : placard::config::default_admin_config_path(ctx.config_path);
  }
  if (!args.empty() && args[0] == "--version") {
    std::cout << "placardctl " << placard::util::service_version() << "\n";
    return 0;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  const std::map<std::string, std::function<int(const Context&, const Argv&)>> commands{
      {"init", ctl::cmd_init},           {"migrate", ctl::cmd_migrate},
      {"demo-data", ctl::cmd_demo_data}, {"account", ctl::cmd_account},
      {"check", ctl::cmd_check},         {"catalog", ctl::cmd_catalog},
      {"grant", ctl::cmd_grant},         {"retention", ctl::cmd_retention},
      {"rollup", ctl::cmd_rollup},       {"sync", ctl::cmd_sync},
      {"setup", ctl::cmd_setup},         {"config", ctl::cmd_config},
      {"journal", ctl::cmd_journal}};
  const auto it = commands.find(args[0]);
  if (it == commands.end()) {
    std::cerr << "placardctl: unknown command " << args[0] << "\n";
    usage(std::cerr);
    return 2;
  }
  try {
    return it->second(ctx, Argv(args.begin() + 1, args.end()));
  } catch (const ctl::UsageError& e) {
    std::cerr << "placardctl " << args[0] << ": " << e.what() << "\n";
    return 2;
  } catch (const sql::SQLException& e) {
    std::cerr << "placardctl " << args[0] << ": database error " << e.getErrorCode() << ": "
              << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "placardctl " << args[0] << ": " << e.what() << "\n";
    return 1;
  }
}
