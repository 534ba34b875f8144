#include "lib/jobs/late_rows.h"

#include <string>

#include "lib/db/transaction.h"
#include "lib/jobs/id_runs.h"
#include "lib/jobs/rollup_write.h"

namespace placard::db {

namespace {

struct Span {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  std::uint64_t n = 0;  // rows counted in it
};

std::uint64_t rows_now(MysqlSession& s, const RawTable& t, const Span& span) {
  auto& st =
      s.prepared(std::string("SELECT COUNT(*) FROM ") + t.name + " WHERE id > ? AND id <= ?");
  st.setUInt64(1, span.lo);
  st.setUInt64(2, span.hi);
  const auto rs = query(st);
  return rs->next() ? rs->getUInt64(1) : 0;
}

std::int64_t seconds(std::chrono::seconds d) {
  return static_cast<std::int64_t>(d.count());
}

}  // namespace

void record_span(MysqlSession& s, const RawTable& t, std::uint64_t lo, std::uint64_t hi,
                 const std::vector<NewRow>& rows) {
  std::vector<std::uint64_t> ids;
  ids.reserve(rows.size());
  for (const auto& r : rows) ids.push_back(r.id);
  // REPLACE: a span counted again after rollup_progress was set back by hand takes the old's place.
  auto& st = s.prepared("REPLACE INTO rollup_spans (name, hi, lo, n, ids) VALUES (?, ?, ?, ?, ?)");
  st.setString(1, t.name);
  st.setUInt64(2, hi);
  st.setUInt64(3, lo);
  st.setUInt64(4, rows.size());
  st.setString(5, encode_id_runs(lo, ids));
  st.executeUpdate();
}

std::uint64_t count_late_rows(MysqlSession& s, const RawTable& t, std::chrono::seconds after) {
  Transaction tx(s);
  std::vector<std::pair<Span, std::string>> spans;
  {
    auto& st = s.prepared(
        "SELECT hi, lo, n, ids FROM rollup_spans WHERE name = ? AND counted_at < "
        "UTC_TIMESTAMP(3) - INTERVAL ? SECOND ORDER BY hi LIMIT 1000 FOR UPDATE");
    st.setString(1, t.name);
    st.setInt64(2, seconds(after));
    const auto rs = query(st);
    while (rs->next()) {
      spans.emplace_back(Span{rs->getUInt64(1), rs->getUInt64(2), rs->getUInt64(3)},
                         rs->getString(4).asStdString());
    }
  }
  if (spans.empty()) return 0;
  std::uint64_t late = 0;
  // One fixed statement per span (the session keeps every prepared text; usually one span).
  auto& del = s.prepared("DELETE FROM rollup_spans WHERE name = ? AND hi = ?");
  for (const auto& [span, ids] : spans) {
    del.setString(1, t.name);
    del.setUInt64(2, span.hi);
    del.executeUpdate();
    if (rows_now(s, t, span) == span.n) continue;
    // Rows came or went: the ones the span did not hold are counted now.
    auto rows = read_new_rows(s, t, span.lo, span.hi);
    std::vector<std::uint64_t> now;
    now.reserve(rows.size());
    for (const auto& r : rows) now.push_back(r.id);
    const auto missing = ids_not_in(ids, span.lo, now);
    if (missing.empty()) continue;
    std::vector<NewRow> found;
    auto next = missing.begin();
    for (auto& r : rows) {
      if (next == missing.end()) break;
      if (r.id != *next) continue;
      found.push_back(std::move(r));
      ++next;
    }
    add_to_rollups(s, found);
    late += found.size();
  }
  tx.commit();
  return late;
}

bool late_rows_due(MysqlSession& s, std::initializer_list<RawTable> tables,
                   std::chrono::seconds after,
                   std::set<std::pair<std::string, std::uint64_t>>& complete) {
  std::vector<std::pair<std::string, Span>> due;
  {
    auto& st = s.prepared(
        "SELECT name, hi, lo, n FROM rollup_spans WHERE counted_at < UTC_TIMESTAMP(3) - "
        "INTERVAL ? SECOND LIMIT 1000");
    st.setInt64(1, seconds(after));
    const auto rs = query(st);
    while (rs->next()) {
      due.emplace_back(rs->getString(1).asStdString(),
                       Span{rs->getUInt64(2), rs->getUInt64(3), rs->getUInt64(4)});
    }
  }
  std::set<std::pair<std::string, std::uint64_t>> seen;
  bool late = false;
  for (const auto& [name, span] : due) {
    const auto key = std::make_pair(name, span.hi);
    seen.insert(key);
    if (late || complete.contains(key)) continue;
    for (const auto& t : tables) {
      if (name != t.name) continue;
      // More rows than counted: some came late. Fewer (deleted by hand since) is no work.
      if (rows_now(s, t, span) > span.n) {
        late = true;
      } else {
        complete.insert(key);
      }
    }
  }
  // Forget the spans deleted since (a locked pass looked at them).
  std::erase_if(complete, [&seen](const auto& key) { return !seen.contains(key); });
  return late;
}

}  // namespace placard::db
