#include "lib/stats/stats_range.h"

#include <chrono>

namespace placard::db {

namespace {

using std::chrono::days;
using std::chrono::sys_days;
using std::chrono::year_month_day;

year_month_day to_ymd(std::int64_t day) {
  return year_month_day{sys_days{days{day / kDaySeconds}}};
}

std::int64_t to_seconds(const year_month_day& ymd) {
  return static_cast<std::int64_t>(sys_days{ymd}.time_since_epoch().count()) * kDaySeconds;
}

void add_days(RangeParts& parts, std::int64_t from, std::int64_t to) {
  if (from > to) return;
  if (!parts.days.empty() && parts.days.back().second + kDaySeconds == from) {
    parts.days.back().second = to;
  } else {
    parts.days.emplace_back(from, to);
  }
}

}  // namespace

std::int64_t month_start(std::int64_t day) {
  const auto ymd = to_ymd(day);
  return to_seconds(ymd.year() / ymd.month() / 1);
}

std::int64_t next_month_start(std::int64_t day) {
  const auto ymd = to_ymd(day);
  const auto first = ymd.year() / ymd.month() / 1;
  return to_seconds(year_month_day{first + std::chrono::months{1}});
}

std::vector<std::int64_t> whole_months(std::int64_t from_day, std::int64_t to_day) {
  std::vector<std::int64_t> out;
  std::int64_t m = from_day == month_start(from_day) ? from_day : next_month_start(from_day);
  while (m <= to_day && next_month_start(m) - kDaySeconds <= to_day) {
    out.push_back(m);
    m = next_month_start(m);
  }
  return out;
}

RangeParts split_by_months(std::int64_t from_day, std::int64_t to_day,
                           const std::set<std::int64_t>& usable) {
  RangeParts parts;
  std::int64_t next = from_day;  // the first day not yet placed
  for (const std::int64_t m : whole_months(from_day, to_day)) {
    if (usable.count(m) == 0) continue;  // its days join the runs around it
    add_days(parts, next, m - kDaySeconds);
    parts.months.push_back(m);
    next = next_month_start(m);
  }
  add_days(parts, next, to_day);
  return parts;
}

}  // namespace placard::db
