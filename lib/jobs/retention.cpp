#include "lib/jobs/retention.h"

#include <algorithm>
#include <thread>

#include "lib/db/named_lock.h"
#include "lib/jobs/account_expiry.h"
#include "lib/store/background_runs.h"

namespace placard::db {

namespace {

std::uint64_t delete_table(MysqlSession& session, const char* table, const char* time_column,
                           int days, const RetentionOptions& o) {
  // The index on the time column makes each statement read only the rows it deletes.
  // Only rows the rollup step has counted: statistics never lose an event to retention.
  const std::string sql = std::string("DELETE FROM ") + table + " WHERE " + time_column +
                          " < UTC_TIMESTAMP(3) - INTERVAL ? DAY AND id <= (SELECT last_id FROM "
                          "rollup_progress WHERE name = '" +
                          table + "') ORDER BY " + time_column + " LIMIT " +
                          std::to_string(std::max(1, o.batch_rows));
  std::uint64_t total = 0;
  while (!o.stopping()) {
    auto& st = session.prepared(sql);
    st.setInt(1, days);
    const auto n = static_cast<std::uint64_t>(st.executeUpdate());  // autocommit: one batch
    total += n;
    if (n < static_cast<std::uint64_t>(std::max(1, o.batch_rows))) break;
    if (o.wait) {
      o.wait(o.pause);
    } else {
      std::this_thread::sleep_for(o.pause);
    }
  }
  return total;
}

}  // namespace

int effective_retention_days(int setting_days, std::int64_t token_ttl_seconds) {
  const std::int64_t ttl_days = (std::max<std::int64_t>(0, token_ttl_seconds) + 86399) / 86400;
  return static_cast<int>(std::max<std::int64_t>(std::max(1, setting_days), ttl_days));
}

RetentionPass delete_old_events(MysqlSession& session, int days, const RetentionOptions& options,
                                int pending_account_days) {
  return session.run(false, [&](MysqlSession& s) {
    RetentionPass pass;
    const NamedLock lock(s, "placard.retention");
    if (!lock.held()) return pass;
    pass.ran = true;
    pass.impressions = delete_table(s, "impressions", "recorded_at", days, options);
    pass.clicks = delete_table(s, "clicks", "clicked_at", days, options);
    pass.ignored = delete_table(s, "ignored_events", "at", days, options);
    if (pending_account_days > 0 && !options.stopping()) {
      pass.expired_accounts = expire_pending_accounts(s, pending_account_days);
    }
    return pass;
  });
}

RetentionJob::RetentionJob(ConnectionParams params, std::chrono::seconds first_delay,
                           std::chrono::seconds interval, SettingsSource settings, Report report)
    : settings_(std::move(settings)),
      report_(std::move(report)),
      job_(std::move(params), first_delay, interval,
           [this](MysqlSession& session) { run_pass(session); }) {}

void RetentionJob::run_pass(MysqlSession& session) {
  const auto settings = settings_();
  if (!settings) return;  // no catalog snapshot yet: the next interval
  const int days = effective_retention_days(settings->retention_days, settings->token_ttl_seconds);
  RetentionOptions options;
  options.stopping = [this] { return job_.stopping(); };
  options.wait = [this](std::chrono::milliseconds d) { job_.sleep_for(d); };
  try {
    const auto pass = delete_old_events(session, days, options, settings->pending_account_days);
    if (pass.ran) record_background_run(session, "retention", true, "worker");
    if (pass.expired_accounts > 0 && report_) {
      report_("retention: removed " + std::to_string(pass.expired_accounts) +
              " unapproved accounts older than " + std::to_string(settings->pending_account_days) +
              " days");
    }
    if (pass.ran && (pass.impressions > 0 || pass.clicks > 0) && report_) {
      report_("retention: deleted " + std::to_string(pass.impressions) + " impressions and " +
              std::to_string(pass.clicks) + " clicks older than " + std::to_string(days) + " days");
    }
  } catch (const std::exception& e) {
    if (report_) report_(std::string("retention: ") + e.what());
  }
}

}  // namespace placard::db
