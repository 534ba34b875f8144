#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp, fcgi-app and placardctl include this header (it needs
// mysql_session.h).
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "lib/db/mysql_session.h"
#include "lib/jobs/periodic_job.h"
#include "lib/jobs/rate_limiter.h"

namespace placard::db {

struct RollupOptions {
  // Rows younger than this are left for the next pass: nearly every insert commits within it, so
  // the locking read that makes sure none in the span is still uncommitted (settled_span.h)
  // seldom waits.
  std::chrono::milliseconds settle{1000};
  std::uint64_t max_rows = 50000;  // rows counted per table per pass, at most
  // How long a pass waits for an insert among the settled rows whose transaction has not committed
  // (settled_span.h): then the pass fails, to be tried again, and counts it once it commits.
  std::chrono::seconds wait{5};
  // How old a counted span is when it is looked at again for rows that appeared in it since
  // (late_rows.h; the config's rollup.late_check_seconds): longer than the longest commit pause.
  std::chrono::seconds late_after{60};
};

struct RollupPass {
  bool ran = false;               // false: another worker (on any host) is at it
  std::uint64_t impressions = 0;  // raw rows counted
  std::uint64_t clicks = 0;
  std::uint64_t ignored = 0;  // rows of ignored_events
  std::uint64_t late = 0;     // rows of any of them counted late (late_rows.h)
};

// One pass of the rollup step, under the named lock placard.rollup (GET_LOCK(..., 0): one at a
// time across hosts, the others skip): for impressions, clicks and ignored_events, in one
// transaction each, counts the settled rows above `rollup_progress.last_id` into stats_hourly and
// stats_daily (the new rows read once, summed in memory, written as multi-row INSERT ... ON
// DUPLICATE KEY UPDATE: rollup_counts.h; counted and ignored apart, ignored also by reason into
// stats_ignored_daily) and moves last_id to the highest id counted. Before counting impressions or
// clicks it judges the per-client `limits` over the new rows, in id order (RateJudge), and marks
// those over a limit rate_limited: being one pass at a time across every host, the limits hold
// across workers and hosts. Each table's pass also keeps which ids it counted (rollup_spans), and
// the spans counted `options.late_after` ago are looked at again for rows that appeared in them
// since, counted then (late_rows.h). Reports read only the rollups; the raw rows are counted
// exactly once. Throws DatabaseUnavailable or DatabaseError.
RollupPass roll_up_events(MysqlSession& session, const RollupOptions& options,
                          const RateLimits& limits);

// Passes until the backlog is counted (a pass counted nothing, another runner holds the lock, or
// `budget` ran out), then the sealed days into their months: what `placardctl rollup` does from
// cron where no worker lives between requests. Returns the rows counted; `ran` false when
// another runner held the lock on the first pass.
RollupPass roll_up_backlog(MysqlSession& session, const RollupOptions& options,
                           const RateLimits& limits, std::chrono::milliseconds budget);

// Each worker's rollup step: a pass every `interval` (a second by default). A pass first asks
// whether any raw table has a settled row (any_settled_rows, settled_span.h: two reads) and
// takes the lock only then, so an idle site's passes write nothing (no lease row every second,
// hence no fsync, binary log entry or Galera write set); the same for spans due for their late
// look (late_rows_due: a row count each, once). `placardctl rollup` takes the lock on every run,
// as its exit status says whether another runner is at it.
class RollupJob {
 public:
  using Report = std::function<void(const std::string&)>;
  // The limits as the settings say now; nullopt (no settings yet): the pass waits.
  using Limits = std::function<std::optional<RateLimits>()>;
  RollupJob(ConnectionParams params, std::chrono::milliseconds interval, RollupOptions options,
            Limits limits, Report report);
  void stop() { job_.stop(); }

 private:
  void run_pass(MysqlSession& session);
  RollupOptions options_;
  Limits limits_;
  Report report_;
  bool failing_ = false;         // the last pass failed: report the next success once
  bool months_failing_ = false;  // the same for the monthly sums (stats_months.h)
  // background_runs is written at most every kRecordEvery per process (the dashboard's "last ran").
  std::optional<std::chrono::steady_clock::time_point> recorded_;
  // Spans found complete by an idle pass (late_rows_due): not counted again until deleted.
  std::set<std::pair<std::string, std::uint64_t>> complete_spans_;
  PeriodicJob job_;  // last: its thread starts after everything above is ready
};

}  // namespace placard::db
