#include "lib/jobs/sync_runner.h"

#include <ctime>

#include "lib/db/admin_db.h"
#include "lib/store/background_runs.h"
#include "lib/store/mysql_network_store.h"
#include "lib/store/mysql_sync_store.h"

namespace placard::db {

struct SyncRunner::Run {
  Run(const ConnectionParams& params, const AdminDb::Report& report)
      : session(params), db(session, report), store(db) {}
  MysqlSession session;
  AdminDb db;
  MysqlSyncStore store;
  std::atomic<bool> done{false};
  std::thread thread;  // last: started once everything above is ready
};

std::string sync_report(const std::string& network, std::uint64_t run_id,
                        const network::SyncOutcome& o) {
  std::string s = "network sync " + network + " run " + std::to_string(run_id) + ": ";
  if (!o.succeeded) return s + "failed: " + o.error.value_or("");
  return s + "succeeded (" + std::to_string(o.counts.created) + " created, " +
         std::to_string(o.counts.updated) + " updated, " + std::to_string(o.counts.disabled) +
         " disabled, " + std::to_string(o.counts.skipped) + " skipped)";
}

SyncRunner::SyncRunner(ConnectionParams params, network::SyncJob& job, Report report)
    : params_(std::move(params)), job_(job), report_(std::move(report)) {}

SyncRunner::~SyncRunner() {
  job_.stop();
  const std::lock_guard<std::mutex> guard(mutex_);
  if (current_ && current_->thread.joinable()) current_->thread.join();
}

network::SyncBegin SyncRunner::launch(const std::string& network,
                                      std::optional<std::uint64_t> account_id) {
  const std::lock_guard<std::mutex> guard(mutex_);
  if (current_) {
    if (!current_->done) return {network::SyncStart::busy, 0};
    current_->thread.join();
    current_.reset();
  }
  auto run = std::make_unique<Run>(params_, report_);
  const auto begun = job_.begin(run->store, network);
  if (begun.state != network::SyncStart::started) return begun;
  Run& r = *run;
  r.thread = std::thread([this, &r, network, account_id, id = begun.run_id] {
    const DriverThreadScope scope;
    try {
      const auto outcome = job_.run(r.store, network, id, account_id);
      if (report_) report_(sync_report(network, id, outcome));
    } catch (const std::exception& e) {
      // finish_run itself failed (the database went away): the next sync marks the run failed.
      if (report_) report_("network sync " + network + ": " + e.what());
    }
    r.done = true;
  });
  current_ = std::move(run);
  return begun;
}

SyncSchedule::SyncSchedule(ConnectionParams params, std::chrono::milliseconds check,
                           network::SyncJob& job, IntervalSource interval, Report report)
    : sync_(job),
      interval_(std::move(interval)),
      report_(std::move(report)),
      job_(std::move(params), check, check, [this](MysqlSession& session) { run_pass(session); }) {}

int run_due_syncs(MysqlSession& session, network::SyncJob& sync, int minutes,
                  const std::function<bool()>& stopping, const SyncSchedule::Report& report) {
  if (minutes <= 0) return 0;
  AdminDb db(session, report);
  MysqlNetworkStore networks(db);
  MysqlSyncStore store(db);
  const auto due = [&](const std::string& network) {
    if (!networks.credentials(network)) return false;
    const auto last = networks.last_sync(network);
    return !last || std::time(nullptr) - last->started_at >= std::int64_t{minutes} * 60;
  };
  int ran = 0;
  for (const std::string network : {"admitad", "awin"}) {
    if (stopping() || !due(network)) continue;
    if (!store.try_lock()) return ran;  // another worker syncs now
    if (!due(network)) {                // another worker has just synced it
      store.unlock();
      continue;
    }
    const auto begun = sync.begin(store, network);
    if (begun.state != network::SyncStart::started) continue;
    const auto outcome = sync.run(store, network, begun.run_id, std::nullopt);
    ++ran;
    if (report) report("scheduled " + sync_report(network, begun.run_id, outcome));
  }
  return ran;
}

void SyncSchedule::run_pass(MysqlSession& session) {
  const auto minutes = interval_();
  if (!minutes || *minutes <= 0) return;
  try {
    run_due_syncs(
        session, sync_, *minutes, [this] { return job_.stopping(); }, report_);
    record_background_run(session, "sync", true, "worker");
  } catch (const std::exception& e) {
    if (report_) report_(std::string("scheduled network sync: ") + e.what());
    record_background_run(session, "sync", false, "worker");
  }
}

}  // namespace placard::db
