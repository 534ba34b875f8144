// placardctl retention run: one retention pass now (what each worker does every
// retention.interval_seconds), with the settings stored in the database; for cron where no
// worker lives between requests (mod_fcgid reaps idle ones).
#include <iostream>

#include "lib/db/connection_params.h"
#include "lib/jobs/retention.h"
#include "lib/store/background_runs.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"
#include "placardctl/stored_settings.h"

namespace placard::ctl {

int cmd_retention(const Context& ctx, const Argv& argv) {
  if (argv.empty() || argv[0] != "run") {
    std::cout
        << "placardctl retention run\nDeletes raw impressions and clicks older than the "
           "retention (rawEventRetentionDays,\nnever less than the token time to live) now, "
           "in small batches. Statistics are kept.\nAlso removes unapproved accounts older than "
           "registration.pending_days.\n"
           "Exit status: 0 done, 3 another pass holds the lock (nothing done; as for rollup and\n"
           "sync, 3 means another runner is at it).\n";
    return argv.empty() || (argv[0] != "--help" && argv[0] != "-h") ? 2 : 0;
  }
  (void)parse(Argv(argv.begin() + 1, argv.end()), {}, {});
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const auto settings = stored_settings(session);
  const int days =
      db::effective_retention_days(settings.raw_event_retention_days, settings.token_ttl_seconds);
  const auto pass =
      db::delete_old_events(session, days, db::RetentionOptions{}, cfg.auth.pending_days);
  if (!pass.ran) {
    std::cout << "another retention pass is running; nothing done\n";
    return 3;  // as rollup and sync: not done, another runner holds the lock
  }
  db::record_background_run(session, "retention", true, "placardctl");
  std::cout << "retention " << days << " days: deleted " << pass.impressions << " impressions and "
            << pass.clicks << " clicks; removed " << pass.expired_accounts
            << " unapproved accounts older than " << cfg.auth.pending_days << " days\n";
  return 0;
}

}  // namespace placard::ctl
