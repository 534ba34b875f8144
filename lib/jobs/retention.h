#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp, fcgi-app and placardctl include this header (it needs
// mysql_session.h).
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lib/db/mysql_session.h"
#include "lib/jobs/periodic_job.h"

namespace placard::db {

// The days raw impressions and clicks are kept: the setting rawEventRetentionDays, but never
// less than the token time to live (rounded up to whole days): deduplication needs the row of
// every token that can still be used.
int effective_retention_days(int setting_days, std::int64_t token_ttl_seconds);

struct RetentionOptions {
  int batch_rows = 1000;                                  // rows per DELETE statement
  std::chrono::milliseconds pause{50};                    // between two statements
  std::function<bool()> stopping = [] { return false; };  // checked between statements
  // Sleeps for the pause (or less, when stopping); the default sleeps.
  std::function<void(std::chrono::milliseconds)> wait;
};

struct RetentionPass {
  bool ran = false;               // false: another worker (on any host) holds the lock and is at it
  std::uint64_t impressions = 0;  // rows deleted
  std::uint64_t clicks = 0;
  std::uint64_t ignored = 0;           // rows of ignored_events (answered, not counted)
  std::uint64_t expired_accounts = 0;  // unapproved accounts past pending_account_days
};

// One pass: under the named lock placard.retention (GET_LOCK(..., 0): one pass at a time across
// every host, the others skip), deletes the raw impressions and clicks recorded more than `days`
// days ago, batch_rows rows per statement with a pause between statements, so the event writer
// never waits long on its locks. Only rows the rollup step has already counted are deleted, and
// the rollups are untouched, so nothing a report shows changes. Throws DatabaseUnavailable
// or DatabaseError.
// With pending_account_days > 0, the same pass then removes the unapproved accounts older than
// that (expire_pending_accounts, lib/jobs/account_expiry.h).
RetentionPass delete_old_events(MysqlSession& session, int days, const RetentionOptions& options,
                                int pending_account_days = 0);

// The periodic job of each worker: a pass first_delay after start, then every interval, with the
// settings of the current catalog snapshot; stop() (or the destructor) ends it promptly, between
// two statements at the latest.
class RetentionJob {
 public:
  struct Settings {
    int retention_days = 90;
    std::int64_t token_ttl_seconds = 86400;
    int pending_account_days = 0;  // registration.pending_days (0: accounts are not expired)
  };
  using SettingsSource = std::function<std::optional<Settings>()>;  // nullopt: not loaded yet
  using Report = std::function<void(const std::string&)>;

  RetentionJob(ConnectionParams params, std::chrono::seconds first_delay,
               std::chrono::seconds interval, SettingsSource settings, Report report);

  void stop() { job_.stop(); }

 private:
  void run_pass(MysqlSession& session);

  SettingsSource settings_;
  Report report_;
  PeriodicJob job_;  // last: its thread starts after everything above is ready
};

}  // namespace placard::db
