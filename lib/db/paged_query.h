#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp include this header (it needs mysql_session.h).
#include <cstdint>
#include <string>

#include "lib/db/mysql_session.h"
#include "lib/db/sql_args.h"

namespace placard::db {

// One page of an admin list, the way every store answers one: the count of all matching rows
// (`count_sql`), then `limit` rows from `offset` of `rows_sql` (which ends with its ORDER BY;
// "LIMIT ? OFFSET ?" is added), `args` bound to both, each row made an item by `read`.
// Page is a struct with `items` (a vector) and `total`.
template <typename Page, typename Read>
Page read_page(MysqlSession& s, const std::string& count_sql, const std::string& rows_sql,
               const SqlArgs& args, int limit, std::uint64_t offset, Read read) {
  Page page;
  auto& count = s.prepared(count_sql);
  args.bind(count);
  {
    const auto rs = query(count);
    if (rs->next()) page.total = rs->getUInt64(1);
  }
  auto& st = s.prepared(rows_sql + " LIMIT ? OFFSET ?");
  const unsigned next = args.bind(st);
  st.setInt(next, limit);
  st.setUInt64(next + 1, offset);
  const auto rs = query(st);
  while (rs->next()) page.items.push_back(read(*rs));
  return page;
}

}  // namespace placard::db
