// placardctl demo-data: the demonstration catalog, then one catalog version bump.
#include <iostream>

#include "lib/db/catalog_version.h"
#include "lib/db/connection_params.h"
#include "lib/db/migrations.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

int cmd_demo_data(const Context& ctx, const Argv& argv) {
  const auto a = parse(argv, {"file"}, {});
  if (a.help) {
    std::cout << "placardctl demo-data [--file sql/demo/demo.sql]\n"
                 "Loads the demonstration catalog (idempotent) and bumps the catalog version.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const std::string file = a.get("file", sql_dir_of(cfg) + "/demo/demo.sql");
  db::run_script_file(session, file);
  db::bump_catalog_version(session);
  std::cout << "demo data loaded from " << file << "\n";
  return 0;
}

}  // namespace placard::ctl
