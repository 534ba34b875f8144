// placardctl grant: the runtime user's privileges, table by table (lib/db/runtime_grants.h).
#include <iostream>
#include <memory>

#include "lib/db/connection_params.h"
#include "lib/db/runtime_grants.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

int cmd_grant(const Context& ctx, const Argv& argv) {
  const auto a = parse(argv, {"user", "host"}, {"print"});
  if (a.help) {
    std::cout
        << "placardctl grant [--user U] [--host H] [--print]\n"
           "Gives the runtime user (default: the config's db.user, host localhost) SELECT,\n"
           "INSERT, UPDATE, DELETE on every table of the database, except audit_log (SELECT,\n"
           "INSERT: audit rows cannot be changed or deleted) and schema_migrations (SELECT),\n"
           "and revokes anything more (a database-wide grant included). Run as db.admin_user\n"
           "after every migrate; idempotent. --print shows the statements without running them.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  const std::string user = a.get("user", cfg.db.user);
  const std::string host = a.get("host", "localhost");
  if (user.empty()) throw UsageError("--user is required (the config has no db.user)");
  const auto admin = db::admin_params(cfg);
  if (user == admin.user) {
    throw UsageError(
        "--user " + user +
        " is the account placardctl connects as (db.admin_user); refusing to restrict it");
  }
  db::init_driver();
  db::MysqlSession session(admin);
  const auto statements = db::plan_runtime_grants(
      cfg.db.name, user, host, db::read_grants(session, cfg.db.name, user, host));
  const std::unique_ptr<sql::Statement> st(session.connection().createStatement());
  for (const auto& s : statements) {
    std::cout << s << ";\n";
    if (!a.flag("print")) st->execute(s);
  }
  std::cout << "-- " << db::account_name(user, host) << ": "
            << (statements.empty() ? "grants already as they should be"
                : a.flag("print")  ? "statements not run (--print)"
                                   : "grants updated")
            << "\n";
  return 0;
}

}  // namespace placard::ctl
