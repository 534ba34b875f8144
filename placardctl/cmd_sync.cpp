// placardctl sync --network NAME: one network sync now (for cron); --due: what the schedule says
// is due, the same job as POST
// /admin/api/v1/network/sync and the workers' schedule, under the same lock. Prints progress;
// exit status 0 when the run succeeded, 1 when it failed, 3 when a sync already runs somewhere,
// 4 when the network has no credentials.
#include <chrono>
#include <iostream>
#include <string>

#include "lib/db/admin_db.h"
#include "lib/db/connection_params.h"
#include "lib/jobs/sync_job.h"
#include "lib/jobs/sync_runner.h"
#include "lib/store/background_runs.h"
#include "lib/store/mysql_sync_store.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"
#include "placardctl/stored_settings.h"

namespace placard::ctl {

namespace {

int sync_due(const Context& ctx) {
  const auto cfg = ctx.load();
  std::optional<crypto::CredentialKeys> keys;
  if (!cfg.credentials_key.empty()) keys = crypto::CredentialKeys::parse(cfg.credentials_key);
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const int minutes = stored_settings(session).network_sync_interval_minutes;
  if (minutes <= 0) {
    std::cout << "scheduled syncs are off (networkSyncIntervalMinutes is 0); nothing done\n";
    return 0;
  }
  network::SyncJob job(network::sync_settings(cfg.network), keys ? &*keys : nullptr);
  const auto report = [](const std::string& m) { std::cout << m << "\n"; };
  const int ran = db::run_due_syncs(
      session, job, minutes, [] { return false; }, report);
  db::record_background_run(session, "sync", true, "placardctl");
  std::cout << ran << (ran == 1 ? " sync" : " syncs") << " ran\n";
  return 0;
}

}  // namespace

int cmd_sync(const Context& ctx, const Argv& argv) {
  const auto a = parse(argv, {"network"}, {"due"});
  if (a.help) {
    std::cout << "placardctl sync --network admitad|awin\n"
                 "Imports the network's offers now (the same job as the admin API's sync), one\n"
                 "sync at a time across all hosts. Exit status: 0 succeeded, 1 failed, 3 another\n"
                 "sync is running, 4 the network has no credentials.\n"
                 "placardctl sync --due\n"
                 "Syncs only the networks the schedule says are due (networkSyncIntervalMinutes;\n"
                 "0 = off: nothing), for cron where no worker lives between requests.\n";
    return 0;
  }
  if (a.flag("due")) {
    if (a.has("network")) throw UsageError("--due and --network exclude each other");
    return sync_due(ctx);
  }
  const std::string network = a.need("network");
  if (network != "admitad" && network != "awin") {
    throw UsageError("--network must be admitad or awin");
  }
  const auto cfg = ctx.load();
  std::optional<crypto::CredentialKeys> keys;
  if (!cfg.credentials_key.empty()) keys = crypto::CredentialKeys::parse(cfg.credentials_key);
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  db::AdminDb admin_db(session, [](const std::string& m) { std::cerr << m << "\n"; });
  db::MysqlSyncStore store(admin_db);
  network::SyncJob job(network::sync_settings(cfg.network), keys ? &*keys : nullptr);
  const auto begun = job.begin(store, network);
  if (begun.state == network::SyncStart::busy) {
    std::cerr << "placardctl sync: a network sync is already running; nothing done\n";
    return 3;
  }
  if (begun.state == network::SyncStart::not_configured) {
    std::cerr << "placardctl sync: the " << network << " credentials are not set\n";
    return 4;
  }
  std::cout << "sync run " << begun.run_id << " of " << network << " started\n" << std::flush;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    const auto d = std::chrono::steady_clock::now() - start;
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) + " ms";
  };
  const auto outcome =
      job.run(store, network, begun.run_id, std::nullopt, [&elapsed](int done, int total) {
        std::cout << "page " << done << " of " << total << " (" << elapsed() << ")\n" << std::flush;
      });
  std::cout << "finished after " << elapsed() << "\n";
  if (!outcome.succeeded) {
    std::cout << "failed: " << outcome.error.value_or("") << "\n";
    return 1;
  }
  std::cout << "succeeded: " << outcome.counts.created << " created, " << outcome.counts.updated
            << " updated, " << outcome.counts.disabled << " disabled, " << outcome.counts.skipped
            << " skipped\n";
  return 0;
}

}  // namespace placard::ctl
