#pragma once
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace placard::db {

// Calendar arithmetic on days given as the Unix seconds of their UTC midnight.
inline constexpr std::int64_t kDaySeconds = 86400;
std::int64_t month_start(std::int64_t day);       // the first day of day's month
std::int64_t next_month_start(std::int64_t day);  // the first day of the month after

// How long after a day's end no writer can still be adding to it (clock differences between
// hosts, a batch that started just before midnight), and the last day sealed at `now`.
inline constexpr std::int64_t kSealSeconds = 3600;
inline std::int64_t last_sealed_day(std::int64_t now) {
  return (now - kSealSeconds) / kDaySeconds * kDaySeconds - kDaySeconds;
}

// The months lying wholly inside [from_day, to_day], by their first days, in order.
std::vector<std::int64_t> whole_months(std::int64_t from_day, std::int64_t to_day);

// A range of days split for reading: the months read from stats_monthly and the day ranges
// (both ends inclusive, in order) read from stats_daily.
struct RangeParts {
  std::vector<std::int64_t> months;
  std::vector<std::pair<std::int64_t, std::int64_t>> days;
};

// Splits [from_day, to_day]: every whole month that is in `usable` (built, and its totals
// unchanged) is read as a month; the rest as runs of days (adjacent days merged into one run).
RangeParts split_by_months(std::int64_t from_day, std::int64_t to_day,
                           const std::set<std::int64_t>& usable);

}  // namespace placard::db
