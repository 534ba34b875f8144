// placardctl check: the config, the token keys, the database as the runtime user.
#include <iostream>

#include "lib/db/connection_params.h"
#include "lib/tokens/key_ring.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

int cmd_check(const Context& ctx, const Argv& argv) {
  const auto a = parse(argv, {}, {});
  if (a.help) {
    std::cout << "placardctl check\nReads the config, checks the token keys, connects to the\n"
                 "database as the runtime user and reports the schema version.\n";
    return 0;
  }
  const auto cfg = ctx.load();
  std::cout << "config: " << ctx.config_path << " ok\n";
  (void)tokens::KeyRing::parse(cfg.token_keys, cfg.token_active_key);
  std::cout << "token keys: ok (active " << cfg.token_active_key << ")\n";
  db::init_driver();
  db::MysqlSession session(db::runtime_params(cfg));
  const auto rs = db::query(
      session.prepared("SELECT (SELECT COALESCE(MAX(version), 0) FROM schema_migrations), "
                       "(SELECT version FROM catalog_version WHERE id = 1)"));
  rs->next();
  std::cout << "database: reachable, schema version " << rs->getInt(1) << ", catalog version "
            << rs->getUInt64(2) << "\n";
  return 0;
}

}  // namespace placard::ctl
