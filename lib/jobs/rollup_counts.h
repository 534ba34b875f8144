#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace placard::db {

// One raw event as a rollup pass counts it (impressions, clicks or ignored_events).
struct RollupEvent {
  std::int64_t at_ms = 0;  // when it was recorded: milliseconds since the epoch, UTC
  std::uint64_t offer_id = 0;
  std::string placement;
  std::string country;
  bool click = false;  // else an impression
  std::string reason;  // why it is not counted ("rate_limited", "bot", ...); empty: counted
};

// The counts of one pass, summed in memory and written as a few multi-row upserts: one pass reads
// its new rows once, where set-based INSERT ... SELECT ... GROUP BY read them once per rollup
// table (five times) and grouped them in temporary tables each time (issue 24: the rollups were a
// large part of the database's CPU per recorded event). The statements add to the counts already
// there (ON DUPLICATE KEY UPDATE c = c + VALUES(c)), so a pass is exactly the sum of its rows.
class RollupCounts {
 public:
  void add(const RollupEvent& e);

  // INSERT ... ON DUPLICATE KEY UPDATE statements for stats_hourly, stats_daily (by offer,
  // placement and country) and stats_ignored_daily, at most `rows` rows each, every key in
  // ascending order. Every value is written by us: dates and numbers as digits, names as hex
  // literals (X'...'), so nothing is quoted or escaped.
  std::vector<std::string> statements(std::size_t rows = 1000) const;

  struct Counts {
    std::uint64_t impressions = 0;
    std::uint64_t ignored_impressions = 0;
    std::uint64_t clicks = 0;
    std::uint64_t ignored_clicks = 0;
  };
  using HourKey = std::tuple<std::int64_t, std::uint64_t, std::string, std::string>;
  using DayKey = std::pair<std::int64_t, std::string>;  // day (days since the epoch), item
  using ReasonKey = std::tuple<std::int64_t, bool, std::string>;  // day, click, reason

  const std::map<HourKey, Counts>& hourly() const { return hourly_; }
  const std::map<DayKey, Counts>& daily(const std::string& dim) const;
  const std::map<ReasonKey, std::uint64_t>& ignored() const { return ignored_; }

 private:
  std::map<HourKey, Counts> hourly_;  // hour (hours since the epoch), offer, placement, country
  std::map<DayKey, Counts> offers_;   // item: the offer id in decimal, as stats_daily keeps it
  std::map<DayKey, Counts> placements_;
  std::map<DayKey, Counts> countries_;
  std::map<ReasonKey, std::uint64_t> ignored_;
};

}  // namespace placard::db
