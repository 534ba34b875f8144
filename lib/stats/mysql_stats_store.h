#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "lib/db/admin_db.h"
#include "lib/stats/stats_part.h"
#include "lib/stats/stats_store.h"

namespace placard::db {

// Reports from stats_daily and stats_monthly (whole months, where built and current: see
// stats_months.h). The days that can no longer change (ended more than kSealSeconds ago, see
// stats_range.h: the rollups only grow for the day the writer's clock is in) are summed once per
// range and kept in the process's StatsCache; the rest (today, near midnight yesterday or tomorrow
// too) is checked on every request, so a new event shows at once: the day's totals (a few
// placement rows) tell whether its rows changed since they were last read.
class MysqlStatsStore : public StatsStore {
 public:
  MysqlStatsStore(AdminDb& db, StatsCache& cache) : db_(db), cache_(cache) {}

  StatsReport report(StatsGroup group, std::int64_t from_day, std::int64_t to_day,
                     std::size_t max_rows) override;
  std::vector<BackgroundRun> background_runs() override;

 private:
  // Every key's sums over the days, one row per key.
  std::vector<StatsRow> read(StatsGroup group, std::int64_t from_day, std::int64_t to_day);
  std::vector<StatsRow> read_sql(const std::string& sql, const char* dim,
                                 std::initializer_list<std::int64_t> days);
  // The rows of one open day, from the cache when the day's totals did not change.
  StatsCache::Rows read_open_day(StatsGroup group, std::int64_t day);
  // Ignored events of the range by kind and reason (stats_ignored_daily; not cached).
  IgnoredByReason ignored_by_reason(std::int64_t from_day, std::int64_t to_day);

  AdminDb& db_;
  StatsCache& cache_;
};

}  // namespace placard::db
