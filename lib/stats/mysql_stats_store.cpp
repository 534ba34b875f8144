#include "lib/stats/mysql_stats_store.h"

#include <algorithm>
#include <memory>
#include <set>
#include <unordered_map>

#include "lib/stats/stats_months.h"
#include "lib/stats/stats_range.h"
#include "lib/store/background_runs.h"
#include "lib/util/time_format.h"

namespace placard::db {

namespace {

constexpr std::int64_t kDay = kDaySeconds;

void collect(const std::unique_ptr<sql::ResultSet>& rs, std::vector<StatsRow>& rows) {
  rows.reserve(rs->rowsCount());
  while (rs->next()) {
    rows.push_back({rs->getString(1).asStdString(),
                    {rs->getUInt64(2), rs->getUInt64(3), rs->getUInt64(4), rs->getUInt64(5)}});
  }
}

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
  if (group == StatsGroup::day) {
    return read_sql(
        "SELECT DATE_FORMAT(day, '%Y-%m-%d'), SUM(impressions), SUM(clicks), "
        "SUM(ignored_impressions), SUM(ignored_clicks) FROM stats_daily "
        "WHERE dim = ? AND day BETWEEN ? AND ? GROUP BY day",
        dim_of(group), {from_day, to_day});
  }
  // One day of offers, placements or countries already has one row per item, in key order: no
  // GROUP BY (which would sort through a temporary table). Used for the open days on every
  // request.
  if (from_day == to_day) {
    return read_sql(
        "SELECT item, impressions, clicks, ignored_impressions, ignored_clicks FROM stats_daily "
        "WHERE dim = ? AND day = ?",
        dim_of(group), {from_day});
  }
  // Longer ranges: whole months from stats_monthly where it is built and current, the days
  // around them (and in any month it cannot serve) from stats_daily, summed in one statement.
  const auto whole = whole_months(from_day, to_day);
  std::set<std::int64_t> usable;
  if (!whole.empty()) db_.call([&](MysqlSession& s) { usable = usable_months(s, whole); });
  const RangeParts parts = split_by_months(from_day, to_day, usable);
  std::string sql = "SELECT item, SUM(i), SUM(c), SUM(ii), SUM(ic) FROM (";
  std::vector<std::int64_t> days;
  if (!parts.months.empty()) {
    sql +=
        "SELECT item, impressions AS i, clicks AS c, ignored_impressions AS ii, ignored_clicks AS "
        "ic "
        "FROM stats_monthly WHERE dim = ? AND month IN (";
    for (std::size_t k = 0; k < parts.months.size(); ++k) sql += k == 0 ? "?" : ", ?";
    sql += ")";
    days.insert(days.end(), parts.months.begin(), parts.months.end());
  }
  if (!parts.days.empty()) {
    if (!parts.months.empty()) sql += " UNION ALL ";
    sql +=
        "SELECT item, impressions AS i, clicks AS c, ignored_impressions AS ii, ignored_clicks AS "
        "ic FROM stats_daily WHERE dim = ? AND (";
    for (std::size_t k = 0; k < parts.days.size(); ++k) {
      sql += k == 0 ? "day BETWEEN ? AND ?" : " OR day BETWEEN ? AND ?";
    }
    sql += ")";
  }
  sql += ") t GROUP BY item";
  std::vector<StatsRow> rows;
  db_.call([&](MysqlSession& s) {
    rows.clear();
    auto& st = s.prepared(sql);
    int at = 1;
    if (!parts.months.empty()) {
      st.setString(at++, dim_of(group));
      for (const auto m : parts.months) st.setString(at++, util::format_date(m));
    }
    if (!parts.days.empty()) {
      st.setString(at++, dim_of(group));
      for (const auto& [a, b] : parts.days) {
        st.setString(at++, util::format_date(a));
        st.setString(at++, util::format_date(b));
      }
    }
    collect(query(st), rows);
  });
  return rows;
}

std::vector<StatsRow> MysqlStatsStore::read_sql(const std::string& sql, const char* dim,
                                                std::initializer_list<std::int64_t> days) {
  std::vector<StatsRow> rows;
  db_.call([&](MysqlSession& s) {
    rows.clear();
    auto& st = s.prepared(sql);
    st.setString(1, dim);
    int at = 2;
    for (const auto d : days) st.setString(at++, util::format_date(d));
    collect(query(st), rows);
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
  const std::int64_t sealed_until = last_sealed_day(now);
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

std::vector<BackgroundRun> MysqlStatsStore::background_runs() {
  return db_.call([](MysqlSession& s) { return read_background_runs(s); });
}

}  // namespace placard::db
