#include "lib/jobs/rollup_write.h"

#include <memory>
#include <string>

#include "lib/jobs/rollup_counts.h"

namespace placard::db {

void add_to_rollups(MysqlSession& s, const std::vector<NewRow>& rows) {
  RollupCounts counts;
  for (const auto& r : rows) counts.add(r.event);
  const std::unique_ptr<sql::Statement> st(s.connection().createStatement());
  for (const auto& sql : counts.statements()) st->executeUpdate(sql);
}

}  // namespace placard::db
