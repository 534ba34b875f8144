// placardctl init: a new config file for the worker and a separate one for the migration
// credentials, both mode 0600, with fresh secrets (placardctl setup does this and more).
#include <iostream>

#include "placardctl/args.h"
#include "placardctl/commands.h"
#include "placardctl/new_config.h"

namespace placard::ctl {

int cmd_init(const Context& ctx, const Argv& argv) {
  auto valued = config_options();
  valued.insert(valued.end(), {"db-password-file", "db-admin-password-file"});
  const auto a = parse(argv, valued, {"force"});
  if (a.help) {
    std::cout
        << "placardctl init [--force] [--listen unix:PATH|127.0.0.1:PORT] [--socket-mode 0660]\n"
           "  [--socket-group GROUP] [--threads N] [--db-socket PATH | --db-host H --db-port P]\n"
           "  [--db-name N] [--db-user U] [--db-password-file F] [--db-admin-user U]\n"
           "  [--db-admin-password-file F] [--log-file PATH] [--sql-dir DIR]\n"
           "  [--public-origin scheme://host[:port]] [--base-path /PATH]\n"
           "Writes the worker's config file (--config) with freshly generated token and\n"
           "credentials keys, and the migration credentials (--db-admin-*) to their own file\n"
           "(--admin-config), which the worker never reads. Both mode 0600, written to a\n"
           "temporary file and renamed (a symlink in the way is replaced, never followed).\n"
           "Refuses to replace existing files unless --force.\n";
    return 0;
  }
  const auto cfg = new_config(
      a, {}, a.has("db-password-file") ? read_secret_file(a.get("db-password-file")) : "",
      a.has("db-admin-password-file") ? read_secret_file(a.get("db-admin-password-file")) : "");
  write_configs(ctx, cfg, a.flag("force"));
  std::cout << "wrote " << ctx.config_path << " (the worker's, mode 0600, new secrets) and "
            << ctx.admin_config_path << " (migration credentials, mode 0600)\n";
  return 0;
}

}  // namespace placard::ctl
