#include "lib/jobs/rollup_counts.h"

#include <stdexcept>
#include <string_view>

#include "lib/db/sql_literals.h"
#include "lib/util/append_decimal.h"
#include "lib/util/time_format.h"

namespace placard::db {

namespace {

constexpr std::int64_t kMsPerHour = 3'600'000;
constexpr std::int64_t kMsPerDay = 86'400'000;

// Floor division: the hour or day an instant falls in, also before 1970 (never in practice).
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

// 'YYYY-MM-DD' of a day number (days since the epoch).
void append_day(std::string& sql, std::int64_t day) {
  sql += '\'';
  sql += util::format_date(day * 86'400);
  sql += '\'';
}

// 'YYYY-MM-DD HH:00:00' of an hour number (hours since the epoch).
void append_hour(std::string& sql, std::int64_t hour) {
  const std::int64_t day = floor_div(hour, 24);
  const std::int64_t h = hour - day * 24;
  sql += '\'';
  sql += util::format_date(day * 86'400);
  sql += ' ';
  sql += static_cast<char>('0' + h / 10);
  sql += static_cast<char>('0' + h % 10);
  sql += ":00:00'";
}

void append_counts(std::string& sql, const RollupCounts::Counts& c) {
  util::append_decimal(sql, c.impressions);
  sql += ", ";
  util::append_decimal(sql, c.ignored_impressions);
  sql += ", ";
  util::append_decimal(sql, c.clicks);
  sql += ", ";
  util::append_decimal(sql, c.ignored_clicks);
}

constexpr std::string_view kCountColumns =
    "impressions, ignored_impressions, clicks, ignored_clicks";
constexpr std::string_view kAddCounts =
    " ON DUPLICATE KEY UPDATE impressions = impressions + VALUES(impressions), "
    "ignored_impressions = ignored_impressions + VALUES(ignored_impressions), "
    "clicks = clicks + VALUES(clicks), ignored_clicks = ignored_clicks + VALUES(ignored_clicks)";

// Splits the rows of one map into statements of at most `rows` rows: head, then each row as
// `row(sql, entry)` separated by ", ", then tail.
template <typename Map, typename Row>
void chunked(std::vector<std::string>& out, const Map& map, std::size_t rows, std::string_view head,
             std::string_view tail, Row row) {
  std::size_t in = 0;  // rows in out.back(), this map's statement being written (0: none open)
  for (const auto& entry : map) {
    if (in == 0) {
      out.emplace_back(head);
    } else {
      out.back() += ", ";
    }
    row(out.back(), entry);
    if (++in == rows) {
      out.back() += tail;
      in = 0;
    }
  }
  if (in > 0) out.back() += tail;
}

}  // namespace

void RollupCounts::add(const RollupEvent& e) {
  const bool counted = e.reason.empty();
  Counts one;
  if (e.click) {
    (counted ? one.clicks : one.ignored_clicks) = 1;
  } else {
    (counted ? one.impressions : one.ignored_impressions) = 1;
  }
  const auto plus = [&one](Counts& c) {
    c.impressions += one.impressions;
    c.ignored_impressions += one.ignored_impressions;
    c.clicks += one.clicks;
    c.ignored_clicks += one.ignored_clicks;
  };
  const std::int64_t day = floor_div(e.at_ms, kMsPerDay);
  plus(hourly_[HourKey{floor_div(e.at_ms, kMsPerHour), e.offer_id, e.placement, e.country}]);
  plus(offers_[DayKey{day, std::to_string(e.offer_id)}]);
  plus(placements_[DayKey{day, e.placement}]);
  plus(countries_[DayKey{day, e.country}]);
  if (!counted) ++ignored_[ReasonKey{day, e.click, e.reason}];
}

const std::map<RollupCounts::DayKey, RollupCounts::Counts>& RollupCounts::daily(
    const std::string& dim) const {
  if (dim == "offer") return offers_;
  if (dim == "placement") return placements_;
  if (dim == "country") return countries_;
  throw std::invalid_argument("RollupCounts::daily: no dimension " + dim);
}

std::vector<std::string> RollupCounts::statements(std::size_t rows) const {
  if (rows == 0) rows = 1;
  std::vector<std::string> out;
  const std::string tail(kAddCounts);
  chunked(out, hourly_, rows,
          "INSERT INTO stats_hourly (hour, offer_id, placement, country, " +
              std::string(kCountColumns) + ") VALUES ",
          tail, [](std::string& sql, const auto& entry) {
            const auto& [key, counts] = entry;
            sql += '(';
            append_hour(sql, std::get<0>(key));
            sql += ", ";
            util::append_decimal(sql, std::get<1>(key));
            sql += ", ";
            append_hex_literal(sql, std::get<2>(key));
            sql += ", ";
            append_hex_literal(sql, std::get<3>(key));
            sql += ", ";
            append_counts(sql, counts);
            sql += ')';
          });
  for (const char* dim : {"offer", "placement", "country"}) {
    chunked(out, daily(dim), rows,
            "INSERT INTO stats_daily (dim, day, item, " + std::string(kCountColumns) + ") VALUES ",
            tail, [dim](std::string& sql, const auto& entry) {
              const auto& [key, counts] = entry;
              sql += "('";
              sql += dim;
              sql += "', ";
              append_day(sql, key.first);
              sql += ", ";
              append_hex_literal(sql, key.second);
              sql += ", ";
              append_counts(sql, counts);
              sql += ')';
            });
  }
  chunked(out, ignored_, rows, "INSERT INTO stats_ignored_daily (day, kind, reason, n) VALUES ",
          " ON DUPLICATE KEY UPDATE n = n + VALUES(n)", [](std::string& sql, const auto& entry) {
            const auto& [key, n] = entry;
            sql += '(';
            append_day(sql, std::get<0>(key));
            sql += std::get<1>(key) ? ", 'click', " : ", 'impression', ";
            append_hex_literal(sql, std::get<2>(key));
            sql += ", ";
            util::append_decimal(sql, n);
            sql += ')';
          });
  return out;
}

}  // namespace placard::db
