#pragma once
// The worker's background work: rollups every second, the retention pass (raw events, expired
// nonces, unapproved accounts past registration.pending_days) and scheduled network syncs. Each
// runs one at a time across hosts (a database lock); none with background_jobs = cron, where
// placardctl runs them from cron instead.
#include <functional>
#include <optional>
#include <string>

#include "lib/catalog/snapshot_holder.h"
#include "lib/config/server_config.h"
#include "lib/db/connection_params.h"
#include "lib/jobs/retention.h"
#include "lib/jobs/rollup_step.h"
#include "lib/jobs/sync_job.h"
#include "lib/jobs/sync_runner.h"

namespace placard::fcgi {

class BackgroundJobs {
 public:
  using Report = std::function<void(const std::string&)>;
  // Starts the jobs the config asks for; their settings are read from the current catalog
  // snapshot at each run (none runs before a snapshot is loaded).
  BackgroundJobs(const config::ServerConfig& cfg, const db::ConnectionParams& params,
                 const catalog::SnapshotHolder& holder, network::SyncJob& sync_job,
                 const Report& report);
  // Asks every job to stop (a run under way finishes); the destructor waits for them.
  void stop();

 private:
  std::optional<db::RollupJob> rollups_;
  std::optional<db::RetentionJob> retention_;
  std::optional<db::SyncSchedule> sync_schedule_;
};

}  // namespace placard::fcgi
