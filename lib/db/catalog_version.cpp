#include "lib/db/catalog_version.h"

namespace placard::db {

void bump_catalog_version(MysqlSession& session) {
  session
      .prepared(
          "UPDATE catalog_version SET version = version + 1, changed_at = UTC_TIMESTAMP(3) "
          "WHERE id = 1")
      .executeUpdate();
}

std::uint64_t read_catalog_version(MysqlSession& session) {
  return session.run(true, [](MysqlSession& s) -> std::uint64_t {
    const auto rs = query(s.prepared("SELECT version FROM catalog_version WHERE id = 1"));
    return rs->next() ? rs->getUInt64(1) : 0;
  });
}

}  // namespace placard::db
