#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/store/background_run.h"
#include "lib/store/ignored_reason.h"

namespace placard::db {

// What GET /admin/api/v1/stats groups by (contract 6.1).
enum class StatsGroup { day, placement, offer, country };

struct StatsCounts {
  std::uint64_t impressions = 0;
  std::uint64_t clicks = 0;
  // Answered but not counted (prefetch, HEAD, crawler, over a per-client limit).
  std::uint64_t ignored_impressions = 0;
  std::uint64_t ignored_clicks = 0;

  StatsCounts& operator+=(const StatsCounts& o) {
    impressions += o.impressions;
    clicks += o.clicks;
    ignored_impressions += o.ignored_impressions;
    ignored_clicks += o.ignored_clicks;
    return *this;
  }
  bool operator==(const StatsCounts&) const = default;
};

struct StatsRow {
  std::string key;  // YYYY-MM-DD, placement name, offer id (decimal) or country code
  StatsCounts counts;
  bool operator==(const StatsRow&) const = default;
};

// Ignored events over a range by reason (index: db::reason_index).
struct IgnoredByReason {
  std::array<std::uint64_t, kIgnoredReasons> impressions{};
  std::array<std::uint64_t, kIgnoredReasons> clicks{};
};

struct StatsReport {
  std::vector<StatsRow> rows;
  StatsCounts totals;  // over the whole range, not only the rows returned
  IgnoredByReason ignored;
};

// Statistics, read from the rollups the event writer keeps (never from the raw event tables).
class StatsStore {
 public:
  virtual ~StatsStore() = default;
  // Days are the Unix seconds of UTC midnights, both inclusive. day: the days that have events,
  // in order (key YYYY-MM-DD; the caller adds the empty days). Other groups: at most max_rows
  // rows, by impressions (highest first), ties by key (as text, ascending).
  virtual StatsReport report(StatsGroup group, std::int64_t from_day, std::int64_t to_day,
                             std::size_t max_rows) = 0;
  // When the background jobs that keep the statistics (rollup, retention, sync) last ran.
  virtual std::vector<BackgroundRun> background_runs() { return {}; }
};

}  // namespace placard::db
