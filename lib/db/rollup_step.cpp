#include "lib/db/rollup_step.h"

#include <memory>

#include "lib/db/named_lock.h"
#include "lib/db/stats_months.h"
#include "lib/db/stats_range.h"
#include "lib/db/transaction.h"
#include "lib/util/time_format.h"

namespace placard::db {

namespace {

struct RawTable {
  const char* name;         // also its rollup_progress row
  const char* time_column;  // when the event was recorded (the database's UTC clock)
  const char* counter;      // the rollup column it adds to
};

constexpr RawTable kImpressions{"impressions", "recorded_at", "impressions"};
constexpr RawTable kClicks{"clicks", "clicked_at", "clicks"};

// Counts the rows (from, to] of one raw table into the rollups.
void add_range(MysqlSession& s, const RawTable& t, std::uint64_t from, std::uint64_t to) {
  const std::string range = std::string(" FROM ") + t.name + " WHERE id > ? AND id <= ? ";
  const std::string add = std::string(" ON DUPLICATE KEY UPDATE ") + t.counter + " = " + t.counter +
                          " + VALUES(" + t.counter + ")";
  const std::string hour = std::string("DATE_FORMAT(") + t.time_column + ", '%Y-%m-%d %H:00:00')";
  const std::string day = std::string("DATE(") + t.time_column + ")";
  const std::string statements[] = {
      std::string("INSERT INTO stats_hourly (hour, offer_id, placement, country, ") + t.counter +
          ") SELECT " + hour + ", offer_id, placement, country, COUNT(*)" + range +
          "GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4" + add,
      std::string("INSERT INTO stats_daily (dim, day, item, ") + t.counter + ") SELECT 'offer', " +
          day + ", offer_id, COUNT(*)" + range + "GROUP BY 2, 3 ORDER BY 2, 3" + add,
      std::string("INSERT INTO stats_daily (dim, day, item, ") + t.counter +
          ") SELECT 'placement', " + day + ", placement, COUNT(*)" + range +
          "GROUP BY 2, 3 ORDER BY 2, 3" + add,
      std::string("INSERT INTO stats_daily (dim, day, item, ") + t.counter +
          ") SELECT 'country', " + day + ", country, COUNT(*)" + range +
          "GROUP BY 2, 3 ORDER BY 2, 3" + add,
  };
  for (const auto& sql : statements) {
    auto& st = s.prepared(sql);
    st.setUInt64(1, from);
    st.setUInt64(2, to);
    st.executeUpdate();
  }
}

std::uint64_t roll_up_table(MysqlSession& s, const RawTable& t, const RollupOptions& o) {
  Transaction tx(s);
  std::uint64_t last = 0;
  {
    auto& st = s.prepared("SELECT last_id FROM rollup_progress WHERE name = ? FOR UPDATE");
    st.setString(1, t.name);
    const auto rs = query(st);
    if (rs->next()) last = rs->getUInt64(1);
  }
  std::uint64_t upto = last;
  {
    auto& st =
        s.prepared(std::string("SELECT MAX(id) FROM ") + t.name + " WHERE id > ? AND id <= ? AND " +
                   t.time_column + " < UTC_TIMESTAMP(3) - INTERVAL ? MICROSECOND");
    st.setUInt64(1, last);
    st.setUInt64(2, last + o.max_rows);
    st.setInt64(3, static_cast<std::int64_t>(o.settle.count()) * 1000);
    const auto rs = query(st);
    if (rs->next() && !rs->isNull(1)) upto = rs->getUInt64(1);
  }
  if (upto == last) return 0;  // nothing settled: the transaction only read
  add_range(s, t, last, upto);
  auto& move = s.prepared(
      "UPDATE rollup_progress SET last_id = ?, rolled_at = UTC_TIMESTAMP(3) WHERE name = ?");
  move.setUInt64(1, upto);
  move.setString(2, t.name);
  move.executeUpdate();
  tx.commit();
  return upto - last;  // ids, not rows: an upper bound (ids can have gaps); for the report only
}

}  // namespace

RollupPass roll_up_events(MysqlSession& session, const RollupOptions& options) {
  return session.run(false, [&](MysqlSession& s) {
    RollupPass pass;
    const NamedLock lock(s, "placard.rollup");
    if (!lock.held()) return pass;
    pass.ran = true;
    pass.impressions = roll_up_table(s, kImpressions, options);
    pass.clicks = roll_up_table(s, kClicks, options);
    return pass;
  });
}

RollupJob::RollupJob(ConnectionParams params, std::chrono::milliseconds interval, Report report)
    : report_(std::move(report)),
      job_(std::move(params), interval, interval,
           [this](MysqlSession& session) { run_pass(session); }) {}

void RollupJob::run_pass(MysqlSession& session) {
  try {
    roll_up_events(session, RollupOptions{});
    if (failing_ && report_) report_("rollups: counting again");
    failing_ = false;
  } catch (const std::exception& e) {
    // Reported once per outage, not every second: the events wait in the raw tables.
    if (!failing_ && report_) report_(std::string("rollups: ") + e.what());
    failing_ = true;
    return;
  }
  try {
    // Then sealed days into their months, for up to 300 ms (a year's backlog takes minutes).
    build_months(session, last_sealed_day(util::unix_now()), std::chrono::milliseconds(300));
    if (months_failing_ && report_) report_("monthly rollups: building again");
    months_failing_ = false;
  } catch (const std::exception& e) {
    if (!months_failing_ && report_) report_(std::string("monthly rollups: ") + e.what());
    months_failing_ = true;
  }
}

}  // namespace placard::db
