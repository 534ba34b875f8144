// placardctl migrate: applies the migrations not yet recorded.
#include <iostream>

#include "lib/db/connection_params.h"
#include "lib/db/migrations.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

int cmd_migrate(const Context& ctx, const Argv& argv) {
  const auto a = parse(argv, {"sql-dir"}, {});
  if (a.help) {
    std::cout << "placardctl migrate [--sql-dir DIR]\n"
                 "Applies sql/NNNN_*.sql migrations not yet recorded in schema_migrations, in\n"
                 "order, as the config's db.admin_user. Safe to run again.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const auto applied = db::apply_migrations(
      session, a.get("sql-dir", sql_dir_of(cfg)),
      [](const std::string& name) { std::cout << "applying " << name << "\n"; });
  std::cout << (applied.empty() ? "schema is up to date\n"
                                : std::to_string(applied.size()) + " migration(s) applied\n");
  return 0;
}

}  // namespace placard::ctl
