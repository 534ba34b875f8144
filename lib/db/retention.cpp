#include "lib/db/retention.h"

#include <algorithm>

namespace placard::db {

namespace {

constexpr const char* kLockName = "placard.retention";

// Holds the named lock for one pass; released however the pass ends (it also dies with the
// connection).
class RetentionLock {
 public:
  explicit RetentionLock(MysqlSession& session) : session_(session) {
    auto& st = session_.prepared("SELECT GET_LOCK(?, 0)");
    st.setString(1, kLockName);
    const auto rs = query(st);
    held_ = rs->next() && !rs->isNull(1) && rs->getInt(1) == 1;
  }
  ~RetentionLock() {
    if (!held_) return;
    try {
      auto& st = session_.prepared("DO RELEASE_LOCK(?)");
      st.setString(1, kLockName);
      st.execute();
    } catch (const std::exception&) {
      // The lock ends with the connection anyway.
    }
  }
  RetentionLock(const RetentionLock&) = delete;
  RetentionLock& operator=(const RetentionLock&) = delete;
  bool held() const { return held_; }

 private:
  MysqlSession& session_;
  bool held_ = false;
};

std::uint64_t delete_table(MysqlSession& session, const char* table, const char* time_column,
                           int days, const RetentionOptions& o) {
  // The index on the time column makes each statement read only the rows it deletes.
  const std::string sql = std::string("DELETE FROM ") + table + " WHERE " + time_column +
                          " < UTC_TIMESTAMP(3) - INTERVAL ? DAY ORDER BY " + time_column +
                          " LIMIT " + std::to_string(std::max(1, o.batch_rows));
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

RetentionPass delete_old_events(MysqlSession& session, int days, const RetentionOptions& options) {
  return session.run(false, [&](MysqlSession& s) {
    RetentionPass pass;
    const RetentionLock lock(s);
    if (!lock.held()) return pass;
    pass.ran = true;
    pass.impressions = delete_table(s, "impressions", "recorded_at", days, options);
    pass.clicks = delete_table(s, "clicks", "clicked_at", days, options);
    return pass;
  });
}

RetentionJob::RetentionJob(ConnectionParams params, std::chrono::seconds first_delay,
                           std::chrono::seconds interval, SettingsSource settings, Report report)
    : params_(std::move(params)),
      first_delay_(first_delay),
      interval_(interval),
      settings_(std::move(settings)),
      report_(std::move(report)),
      thread_([this] { run(); }) {}

RetentionJob::~RetentionJob() {
  stop();
  thread_.join();
}

void RetentionJob::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

bool RetentionJob::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, d, [this] { return stopping_; });
}

void RetentionJob::run() {
  const DriverThreadScope scope;
  MysqlSession session(params_);
  if (!sleep_for(first_delay_)) return;
  do {
    run_pass(session);
  } while (sleep_for(interval_));
}

void RetentionJob::run_pass(MysqlSession& session) {
  const auto settings = settings_();
  if (!settings) return;  // no catalog snapshot yet: the next interval
  const int days = effective_retention_days(settings->retention_days, settings->token_ttl_seconds);
  RetentionOptions options;
  options.stopping = [this] {
    const std::lock_guard lock(mutex_);
    return stopping_;
  };
  options.wait = [this](std::chrono::milliseconds d) { sleep_for(d); };
  try {
    const auto pass = delete_old_events(session, days, options);
    if (pass.ran && (pass.impressions > 0 || pass.clicks > 0) && report_) {
      report_("retention: deleted " + std::to_string(pass.impressions) + " impressions and " +
              std::to_string(pass.clicks) + " clicks older than " + std::to_string(days) + " days");
    }
  } catch (const std::exception& e) {
    if (report_) report_(std::string("retention: ") + e.what());
  }
}

}  // namespace placard::db
