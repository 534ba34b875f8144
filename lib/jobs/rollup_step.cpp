#include "lib/jobs/rollup_step.h"

#include <algorithm>
#include <string>
#include <vector>

#include "lib/db/named_lock.h"
#include "lib/db/transaction.h"
#include "lib/jobs/late_rows.h"
#include "lib/jobs/limit_judging.h"
#include "lib/jobs/raw_events.h"
#include "lib/jobs/rollup_write.h"
#include "lib/jobs/settled_span.h"
#include "lib/stats/stats_months.h"
#include "lib/stats/stats_range.h"
#include "lib/store/background_runs.h"
#include "lib/util/time_format.h"

namespace placard::db {

namespace {

std::uint64_t roll_up_table(MysqlSession& s, const RawTable& t, const RollupOptions& o,
                            const std::vector<RateWindow>* windows) {
  const auto span = settled_span(s, t, o.settle, o.max_rows, o.wait);
  if (!span) return 0;  // nothing settled
  const std::uint64_t last = span->last;
  const std::uint64_t upto = span->upto;
  Transaction tx(s);
  {
    auto& st = s.prepared("SELECT last_id FROM rollup_progress WHERE name = ? FOR UPDATE");
    st.setString(1, t.name);
    const auto rs = query(st);
    // Moved since by another runner (one whose lease this pass outlived): the next pass counts.
    if (!rs->next() || rs->getUInt64(1) != last) return 0;
  }
  std::vector<NewRow> rows = read_new_rows(s, t, last, upto);
  if (windows != nullptr) {
    RateJudge judge(*windows);
    if (judge.active()) {
      judge_limits(s, t, last, upto, judge, rows);
    } else {
      forget_limit_state(s, t);
    }
  }
  add_to_rollups(s, rows);
  record_span(s, t, last, upto, rows);
  auto& move = s.prepared(
      "UPDATE rollup_progress SET last_id = ?, rolled_at = UTC_TIMESTAMP(3) WHERE name = ?");
  move.setUInt64(1, upto);
  move.setString(2, t.name);
  move.executeUpdate();
  tx.commit();
  return upto - last;  // ids, not rows: an upper bound (ids can have gaps); for the report only
}

}  // namespace

RollupPass roll_up_events(MysqlSession& session, const RollupOptions& options,
                          const RateLimits& limits) {
  return session.run(false, [&](MysqlSession& s) {
    RollupPass pass;
    // A short lease: a step is bounded (seconds); a holder that died blocks others 60 s at most.
    const NamedLock lock(s, "placard.rollup", 0, 60);
    if (!lock.held()) return pass;
    pass.ran = true;
    pass.impressions = roll_up_table(s, kImpressions, options, &limits.impressions);
    pass.clicks = roll_up_table(s, kClicks, options, &limits.clicks);
    pass.ignored = roll_up_table(s, kIgnored, options, nullptr);
    for (const auto& t : kRawTables) {
      pass.late += count_late_rows(s, t, options.late_after);
    }
    return pass;
  });
}

RollupJob::RollupJob(ConnectionParams params, std::chrono::milliseconds interval,
                     RollupOptions options, Limits limits, Report report)
    : options_(options),
      limits_(std::move(limits)),
      report_(std::move(report)),
      job_(std::move(params), interval, interval,
           [this](MysqlSession& session) { run_pass(session); }) {}

RollupPass roll_up_backlog(MysqlSession& session, const RollupOptions& options,
                           const RateLimits& limits, std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  RollupPass total;
  for (bool first = true;; first = false) {
    const auto pass = roll_up_events(session, options, limits);
    if (!pass.ran) {
      if (first) return total;
      break;
    }
    total.ran = true;
    total.impressions += pass.impressions;
    total.clicks += pass.clicks;
    total.ignored += pass.ignored;
    total.late += pass.late;
    if (pass.impressions + pass.clicks + pass.ignored == 0) break;
    if (std::chrono::steady_clock::now() >= deadline) break;
  }
  const auto left = deadline - std::chrono::steady_clock::now();
  build_months(session, last_sealed_day(util::unix_now()),
               std::max(std::chrono::duration_cast<std::chrono::milliseconds>(left),
                        std::chrono::milliseconds(300)));
  return total;
}

void RollupJob::run_pass(MysqlSession& session) {
  try {
    // No settings yet (no snapshot): wait, rather than count rows nobody judged.
    const auto limits = limits_();
    if (!limits) return;
    // Most passes of an idle site find nothing: they ask first, and take no lock, write no lease.
    const bool idle = session.run(true, [this](MysqlSession& s) {
      return !any_settled_rows(s, kRawTables, options_.settle) &&
             !late_rows_due(s, kRawTables, options_.late_after, complete_spans_);
    });
    const auto pass = idle ? RollupPass{.ran = true} : roll_up_events(session, options_, *limits);
    if (failing_ && report_) report_("rollups: counting again");
    failing_ = false;
    if (pass.late > 0 && report_) {
      report_("rollups: counted " + std::to_string(pass.late) +
              " event(s) whose rows appeared after a pass had counted past their ids (late "
              "commits)");
    }
    const auto now = std::chrono::steady_clock::now();
    if (pass.ran && (!recorded_ || now - *recorded_ >= std::chrono::seconds(30))) {
      record_background_run(session, "rollup", true, "worker");
      recorded_ = now;
    }
  } catch (const std::exception& e) {
    // Reported once per outage, not every second: the events wait in the raw tables.
    if (!failing_ && report_) report_(std::string("rollups: ") + e.what());
    failing_ = true;
    return;
  }
  try {
    // Then sealed days into their months, for up to 300 ms (a year's backlog takes minutes).
    build_months(session, last_sealed_day(util::unix_now()), std::chrono::milliseconds(300));
    if (months_failing_ && report_) report_("monthly rollups: building again");
    months_failing_ = false;
  } catch (const std::exception& e) {
    if (!months_failing_ && report_) report_(std::string("monthly rollups: ") + e.what());
    months_failing_ = true;
  }
}

}  // namespace placard::db
