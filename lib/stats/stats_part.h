#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "lib/stats/stats_store.h"

namespace placard::db {

// The sums of one group over a range of days, every key, ranked (impressions desc, key asc; for
// StatsGroup::day: by key, i.e. by date), with an index by key and the totals. The index is the
// positions sorted by key (4 bytes a key, searched by halves), not a hash map with a copy of
// every key: a part of 100,000 offers is kept in the cache, and the map took more memory than the
// rows themselves (issue 24: the worker's VmRSS after the bench's stats step).
class StatsPart {
 public:
  StatsPart(StatsGroup group, std::vector<StatsRow> rows);

  const std::vector<StatsRow>& ranked() const { return ranked_; }
  // The position of a key in ranked(), or npos.
  std::size_t position(std::string_view key) const;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  const StatsCounts& totals() const { return totals_; }

 private:
  std::vector<StatsRow> ranked_;
  std::vector<std::uint32_t> by_key_;  // positions in ranked_, in key order
  StatsCounts totals_;
};

// True when a comes before b in the report's order of that group.
bool ranks_before(StatsGroup group, const StatsRow& a, const StatsRow& b);

// The report of closed (a sealed range, typically cached; may be null) plus live (the days that
// may still change, one row per key): every key's counts added, at most max_rows rows in rank
// order, totals of both. Costs O(live rows + max_rows), not O(closed rows).
StatsReport merge_parts(StatsGroup group, const StatsPart* closed, std::vector<StatsRow> live,
                        std::size_t max_rows);

// Sums of days that can no longer change (the rollups only ever grow for the current day), kept
// per process and shared by its request threads: the few most recently used ranges.
class StatsCache {
 public:
  using Key = std::tuple<StatsGroup, std::int64_t, std::int64_t>;  // group, from, to (days)
  explicit StatsCache(std::size_t capacity = 16) : capacity_(capacity) {}

  std::shared_ptr<const StatsPart> get(const Key& key);
  void put(const Key& key, std::shared_ptr<const StatsPart> part);

  // An open day's rows, as read when the day's totals were `fingerprint`. Counters only grow and
  // every event adds to its day's totals, so the same totals mean the same rows.
  using Rows = std::shared_ptr<const std::vector<StatsRow>>;
  Rows get_open(StatsGroup group, std::int64_t day, const StatsCounts& fingerprint);
  void put_open(StatsGroup group, std::int64_t day, const StatsCounts& fingerprint, Rows rows);

 private:
  struct Open {
    StatsCounts fingerprint;
    Rows rows;
  };
  std::mutex mutex_;
  std::size_t capacity_;
  std::list<std::pair<Key, std::shared_ptr<const StatsPart>>> entries_;  // most recent first
  std::map<std::pair<StatsGroup, std::int64_t>, Open> open_;
};

}  // namespace placard::db
