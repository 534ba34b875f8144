#include "lib/db/event_rollups.h"

#include <map>
#include <string>
#include <tuple>

#include "lib/util/time_format.h"

namespace placard::db {

namespace {

constexpr const char* kAdd =
    " ON DUPLICATE KEY UPDATE impressions = impressions + VALUES(impressions), "
    "clicks = clicks + VALUES(clicks)";

std::string rows_sql(const char* head, const char* row, std::size_t n) {
  std::string sql = head;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) sql += ", ";
    sql += row;
  }
  return sql + kAdd;
}

// The order of stats_daily's key: dim (in the ENUM's order), then item.
enum Dim { offer = 0, placement = 1, country = 2 };
constexpr const char* kDimNames[] = {"offer", "placement", "country"};

}  // namespace

void add_to_rollups(MysqlSession& session, bool clicks,
                    const std::vector<const EventRecord*>& fresh, std::int64_t now) {
  if (fresh.empty()) return;
  // std::map: the rows come out sorted by the tables' keys (the hour and the day are the same
  // for every row of one call).
  std::map<std::tuple<std::uint64_t, std::string, std::string>, std::uint64_t> hourly;
  std::map<std::pair<int, std::string>, std::uint64_t> daily;
  for (const auto* e : fresh) {
    ++hourly[{e->offer_id, e->placement, e->country}];
    ++daily[{Dim::offer, std::to_string(e->offer_id)}];
    ++daily[{Dim::placement, e->placement}];
    ++daily[{Dim::country, e->country}];
  }
  const std::int64_t hour = now - now % 3600;
  const std::string day = util::format_date(now);

  auto& h = session.prepared(rows_sql(
      "INSERT INTO stats_hourly (hour, offer_id, placement, country, impressions, clicks) VALUES ",
      "(FROM_UNIXTIME(?), ?, ?, ?, ?, ?)", hourly.size()));
  unsigned i = 1;
  for (const auto& [key, n] : hourly) {
    h.setInt64(i++, hour);
    h.setUInt64(i++, std::get<0>(key));
    h.setString(i++, std::get<1>(key));
    h.setString(i++, std::get<2>(key));
    h.setUInt64(i++, clicks ? 0 : n);
    h.setUInt64(i++, clicks ? n : 0);
  }
  h.executeUpdate();

  auto& d = session.prepared(
      rows_sql("INSERT INTO stats_daily (dim, day, item, impressions, clicks) VALUES ",
               "(?, ?, ?, ?, ?)", daily.size()));
  i = 1;
  for (const auto& [key, n] : daily) {
    d.setString(i++, kDimNames[key.first]);
    d.setString(i++, day);
    d.setString(i++, key.second);
    d.setUInt64(i++, clicks ? 0 : n);
    d.setUInt64(i++, clicks ? n : 0);
  }
  d.executeUpdate();
}

}  // namespace placard::db
