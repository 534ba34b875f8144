// placardctl catalog bump: every worker rebuilds its catalog snapshot.
#include <iostream>

#include "lib/db/catalog_version.h"
#include "lib/db/connection_params.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

int cmd_catalog(const Context& ctx, const Argv& argv) {
  if (argv.empty() || argv[0] != "bump") {
    std::cout
        << "placardctl catalog bump\nMakes every worker rebuild its catalog snapshot (after a "
           "change made directly in the database).\n";
    return argv.empty() || (argv[0] != "--help" && argv[0] != "-h") ? 2 : 0;
  }
  (void)parse(Argv(argv.begin() + 1, argv.end()), {}, {});
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  db::bump_catalog_version(session);
  std::cout << "catalog version bumped\n";
  return 0;
}

}  // namespace placard::ctl
