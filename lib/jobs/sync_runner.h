#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp and fcgi-app include this header (it needs mysql_session.h).
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "lib/db/mysql_session.h"
#include "lib/jobs/periodic_job.h"
#include "lib/jobs/sync_job.h"

namespace placard::db {

// The worker's network syncs started by the admin API: each on a background thread with a
// database connection of its own (the named lock is that connection's). One at a time per
// process (the lock makes it one at a time everywhere); the destructor stops and waits for it.
class SyncRunner : public network::SyncLauncher {
 public:
  using Report = std::function<void(const std::string&)>;
  SyncRunner(ConnectionParams params, network::SyncJob& job, Report report);
  ~SyncRunner() override;
  SyncRunner(const SyncRunner&) = delete;
  SyncRunner& operator=(const SyncRunner&) = delete;

  network::SyncBegin launch(const std::string& network,
                            std::optional<std::uint64_t> account_id) override;

 private:
  struct Run;
  ConnectionParams params_;
  network::SyncJob& job_;
  Report report_;
  std::mutex mutex_;
  std::unique_ptr<Run> current_;
};

// The workers' scheduled syncs (setting networkSyncIntervalMinutes, 0 = off): every `check`,
// each network with credentials whose last run started at least the interval ago is synced,
// under the same named lock (a worker that finds it taken, or finds that another worker has
// just synced, does nothing).
class SyncSchedule {
 public:
  using IntervalSource = std::function<std::optional<int>()>;  // minutes; nullopt: not loaded
  using Report = std::function<void(const std::string&)>;

  SyncSchedule(ConnectionParams params, std::chrono::milliseconds check, network::SyncJob& job,
               IntervalSource interval, Report report);
  void stop() {
    sync_.stop();
    job_.stop();
  }

 private:
  void run_pass(MysqlSession& session);

  network::SyncJob& sync_;
  IntervalSource interval_;
  Report report_;
  PeriodicJob job_;  // last: its thread starts after everything above is ready
};

// One schedule check: each network with credentials whose last run started at least `minutes`
// ago is synced, under the sync lock (taken: nothing more is done). What the workers' schedule
// runs, and `placardctl sync --due` from cron. Returns how many syncs ran.
int run_due_syncs(MysqlSession& session, network::SyncJob& sync, int minutes,
                  const std::function<bool()>& stopping, const SyncSchedule::Report& report);

// A sync run's result for the log: "network sync admitad run 12: succeeded (3 created, ...)".
std::string sync_report(const std::string& network, std::uint64_t run_id,
                        const network::SyncOutcome& outcome);

}  // namespace placard::db
