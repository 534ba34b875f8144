#include "lib/jobs/settled_span.h"

#include <map>
#include <string>

#include "lib/db/transaction.h"

namespace placard::db {

namespace {

constexpr int kLockWaitTimeout = 1205;

}  // namespace

std::optional<SettledSpan> settled_span(MysqlSession& s, const RawTable& t,
                                        std::chrono::milliseconds settle, std::uint64_t max_rows,
                                        std::chrono::seconds wait) {
  // The session's lock wait (seconds) bounds the locking read: only this step's session waits
  // on locks, and nothing else of its passes waits that long.
  s.execute("SET SESSION innodb_lock_wait_timeout = " + std::to_string(wait.count()));
  s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");  // the next transaction only
  Transaction tx(s);
  SettledSpan span;
  {
    auto& st = s.prepared("SELECT last_id FROM rollup_progress WHERE name = ?");
    st.setString(1, t.name);
    const auto rs = query(st);
    if (rs->next()) span.last = rs->getUInt64(1);
  }
  span.upto = span.last;
  {
    // At most max_rows *rows*, not ids: ids have gaps (every duplicate INSERT IGNORE uses one),
    // and a window of ids could hold no row at all and stop the counting for good.
    auto& st = s.prepared(std::string("SELECT MAX(id) FROM (SELECT id FROM ") + t.name +
                          " WHERE id > ? AND " + t.time_column +
                          " < UTC_TIMESTAMP(3) - INTERVAL ? MICROSECOND ORDER BY id LIMIT ?) w");
    st.setUInt64(1, span.last);
    st.setInt64(2, static_cast<std::int64_t>(settle.count()) * 1000);
    st.setUInt64(3, max_rows);
    const auto rs = query(st);
    if (rs->next() && !rs->isNull(1)) span.upto = rs->getUInt64(1);
  }
  if (span.upto == span.last) return std::nullopt;  // nothing settled
  try {
    auto& st = s.prepared(std::string("SELECT COUNT(*) FROM ") + t.name +
                          " WHERE id > ? AND id <= ? LOCK IN SHARE MODE");
    st.setUInt64(1, span.last);
    st.setUInt64(2, span.upto);
    query(st);
  } catch (const sql::SQLException& e) {
    if (e.getErrorCode() != kLockWaitTimeout) throw;
    throw UncommittedInsert(std::string(t.name) + ": an insert at or below id " +
                            std::to_string(span.upto) + " has not committed for " +
                            std::to_string(wait.count()) +
                            " s; counting waits for it (its transaction still runs)");
  }
  tx.commit();
  return span;
}

bool any_settled_rows(MysqlSession& s, std::initializer_list<RawTable> tables,
                      std::chrono::milliseconds settle) {
  std::map<std::string, std::uint64_t> last;
  {
    const auto rs = query(s.prepared("SELECT name, last_id FROM rollup_progress"));
    while (rs->next()) last[rs->getString(1).asStdString()] = rs->getUInt64(2);
  }
  // By the primary key: the time index would walk every counted row before the first new one.
  std::string sql = "SELECT ";
  for (bool first = true; const auto& t : tables) {
    if (!first) sql += " OR ";
    first = false;
    sql.append("EXISTS(SELECT 1 FROM ")
        .append(t.name)
        .append(" FORCE INDEX (PRIMARY) WHERE id > ? AND ");
    sql.append(t.time_column).append(" < UTC_TIMESTAMP(3) - INTERVAL ? MICROSECOND)");
  }
  auto& st = s.prepared(sql);
  int i = 0;
  for (const auto& t : tables) {
    const auto found = last.find(t.name);
    st.setUInt64(++i, found == last.end() ? 0 : found->second);
    st.setInt64(++i, static_cast<std::int64_t>(settle.count()) * 1000);
  }
  const auto rs = query(st);
  return rs->next() && rs->getInt(1) != 0;
}

}  // namespace placard::db
