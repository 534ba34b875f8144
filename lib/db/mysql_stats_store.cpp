#include "lib/db/mysql_stats_store.h"

#include <algorithm>
#include <memory>
#include <optional>

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

StatsPart MysqlStatsStore::read(StatsGroup group, std::int64_t from_day, std::int64_t to_day) {
  const std::string sql =
      group == StatsGroup::day
          ? "SELECT DATE_FORMAT(day, '%Y-%m-%d'), SUM(impressions), SUM(clicks) FROM stats_daily "
            "WHERE dim = ? AND day BETWEEN ? AND ? GROUP BY day"
          : "SELECT item, SUM(impressions), SUM(clicks) FROM stats_daily "
            "WHERE dim = ? AND day BETWEEN ? AND ? GROUP BY item";
  std::vector<StatsRow> rows;
  db_.call([&](MysqlSession& s) {
    rows.clear();
    auto& st = s.prepared(sql);
    st.setString(1, dim_of(group));
    st.setString(2, util::format_date(from_day));
    st.setString(3, util::format_date(to_day));
    const auto rs = query(st);
    while (rs->next()) {
      rows.push_back({rs->getString(1).asStdString(), {rs->getUInt64(2), rs->getUInt64(3)}});
    }
  });
  return StatsPart(group, std::move(rows));
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
      closed = std::make_shared<const StatsPart>(read(group, from_day, closed_to));
      cache_.put(key, closed);
    }
  }
  std::optional<StatsPart> live;
  const std::int64_t live_from = std::max(from_day, closed_to + kDay);
  if (live_from <= to_day) live.emplace(read(group, live_from, to_day));
  return merge_parts(group, closed.get(), live ? &*live : nullptr, max_rows);
}

}  // namespace placard::db
