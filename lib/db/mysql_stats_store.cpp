#include "lib/db/mysql_stats_store.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "lib/util/time_format.h"

namespace placard::db {

namespace {

constexpr std::int64_t kDay = 86400;

const char* dim_of(StatsGroup group) {
  switch (group) {
    case StatsGroup::offer:
      return "offer";
    case StatsGroup::country:
      return "country";
    default:
      return "placement";  // day totals: every event has exactly one placement
  }
}

}  // namespace

std::vector<StatsRow> MysqlStatsStore::read(StatsGroup group, std::int64_t from_day,
                                            std::int64_t to_day) {
  // One day of offers, placements or countries already has one row per item, in key order: no
  // GROUP BY (which would sort through a temporary table). Used for the open days on every
  // request.
  const bool one_day = from_day == to_day && group != StatsGroup::day;
  const std::string sql =
      group == StatsGroup::day
          ? "SELECT DATE_FORMAT(day, '%Y-%m-%d'), SUM(impressions), SUM(clicks), "
            "SUM(ignored_impressions), SUM(ignored_clicks) FROM stats_daily "
            "WHERE dim = ? AND day BETWEEN ? AND ? GROUP BY day"
      : one_day ? "SELECT item, impressions, clicks, ignored_impressions, ignored_clicks "
                  "FROM stats_daily WHERE dim = ? AND day = ?"
                : "SELECT item, SUM(impressions), SUM(clicks), SUM(ignored_impressions), "
                  "SUM(ignored_clicks) FROM stats_daily "
                  "WHERE dim = ? AND day BETWEEN ? AND ? GROUP BY item";
  std::vector<StatsRow> rows;
  db_.call([&](MysqlSession& s) {
    rows.clear();
    auto& st = s.prepared(sql);
    st.setString(1, dim_of(group));
    st.setString(2, util::format_date(from_day));
    if (!one_day) st.setString(3, util::format_date(to_day));
    const auto rs = query(st);
    rows.reserve(rs->rowsCount());
    while (rs->next()) {
      rows.push_back({rs->getString(1).asStdString(),
                      {rs->getUInt64(2), rs->getUInt64(3), rs->getUInt64(4), rs->getUInt64(5)}});
    }
  });
  return rows;
}

StatsCache::Rows MysqlStatsStore::read_open_day(StatsGroup group, std::int64_t day) {
  StatsCounts totals;
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "SELECT COALESCE(SUM(impressions), 0), COALESCE(SUM(clicks), 0), "
        "COALESCE(SUM(ignored_impressions), 0), COALESCE(SUM(ignored_clicks), 0) "
        "FROM stats_daily WHERE dim = 'placement' AND day = ?");
    st.setString(1, util::format_date(day));
    const auto rs = query(st);
    if (rs->next()) {
      totals = {rs->getUInt64(1), rs->getUInt64(2), rs->getUInt64(3), rs->getUInt64(4)};
    }
  });
  if (auto rows = cache_.get_open(group, day, totals)) return rows;
  // Read after the totals: if events came in between, the rows hold more than the totals say,
  // which the next request's totals reveal (they differ), so nothing stale is ever kept.
  auto rows = std::make_shared<const std::vector<StatsRow>>(read(group, day, day));
  cache_.put_open(group, day, totals, rows);
  return rows;
}

StatsReport MysqlStatsStore::report(StatsGroup group, std::int64_t from_day, std::int64_t to_day,
                                    std::size_t max_rows) {
  // The last sealed day: it ended kSealSeconds ago or more.
  const std::int64_t now = util::unix_now();
  const std::int64_t sealed_until = (now - kSealSeconds) / kDay * kDay - kDay;
  const std::int64_t closed_to = std::min(to_day, sealed_until);
  std::shared_ptr<const StatsPart> closed;
  if (closed_to >= from_day) {
    const StatsCache::Key key{group, from_day, closed_to};
    closed = cache_.get(key);
    if (!closed) {
      closed = std::make_shared<const StatsPart>(group, read(group, from_day, closed_to));
      cache_.put(key, closed);
    }
  }
  std::vector<StatsRow> live;
  const std::int64_t live_from = std::max(from_day, closed_to + kDay);
  // The open days: today, yesterday within kSealSeconds after midnight, tomorrow within
  // kSealSeconds before it (a writer whose clock is ahead); later days have no rows. Each day is
  // read on its own (no GROUP BY), then added up by key.
  const std::int64_t live_to = std::min(to_day, (now + kSealSeconds) / kDay * kDay);
  for (std::int64_t d = live_from; d <= live_to; d += kDay) {
    const auto rows = read_open_day(group, d);
    if (live.empty()) {
      live = *rows;
      continue;
    }
    std::unordered_map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < live.size(); ++i) at.emplace(live[i].key, i);
    for (const auto& r : *rows) {
      const auto it = at.find(r.key);
      if (it != at.end()) {
        live[it->second].counts += r.counts;
      } else {
        live.push_back(r);
      }
    }
  }
  StatsReport out = merge_parts(group, closed.get(), std::move(live), max_rows);
  out.ignored = ignored_by_reason(from_day, to_day);
  return out;
}

IgnoredByReason MysqlStatsStore::ignored_by_reason(std::int64_t from_day, std::int64_t to_day) {
  // At most 8 rows a day (kind x reason): small enough to sum on every request.
  IgnoredByReason out;
  db_.call([&](MysqlSession& s) {
    out = {};
    auto& st = s.prepared(
        "SELECT kind, reason, SUM(n) FROM stats_ignored_daily WHERE day BETWEEN ? AND ? "
        "GROUP BY kind, reason");
    st.setString(1, util::format_date(from_day));
    st.setString(2, util::format_date(to_day));
    const auto rs = query(st);
    while (rs->next()) {
      const auto reason = ignored_reason_from(rs->getString(2).asStdString());
      if (!reason) continue;
      auto& counts = rs->getString(1).asStdString() == "impression" ? out.impressions : out.clicks;
      counts[reason_index(*reason)] += rs->getUInt64(3);
    }
  });
  return out;
}

}  // namespace placard::db
