// placardctl rollup: counts the recorded impressions and clicks into the statistics now (what
// each worker's rollup step does every second), until the backlog is counted or --max-seconds
// ran out. For cron on hosts where no worker lives between requests (mod_fcgid reaps idle
// processes): the same passes under the same named lock, so it is safe while workers run.
#include <chrono>
#include <iostream>
#include <string>

#include "lib/api/rate_limits.h"
#include "lib/db/connection_params.h"
#include "lib/jobs/rollup_step.h"
#include "lib/store/background_runs.h"
#include "lib/util/parse_int.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"
#include "placardctl/stored_settings.h"

namespace placard::ctl {

int cmd_rollup(const Context& ctx, const Argv& argv) {
  const auto a = parse(argv, {"max-seconds"}, {});
  if (a.help) {
    std::cout << "placardctl rollup [--max-seconds N]\n"
                 "Counts recorded impressions and clicks into the statistics now, until none is\n"
                 "left or N seconds (default 240) have passed; safe while workers run (one\n"
                 "runner at a time on any host). For cron: * * * * * placardctl rollup\n"
                 "Exit status: 0 counted (or nothing to count), 3 another runner is at it.\n";
    return 0;
  }
  const auto seconds = util::parse_int_in<int>(a.get("max-seconds", "240"), 1, 3600);
  if (!seconds) throw UsageError("--max-seconds must be a whole number from 1 to 3600");
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  const auto settings = stored_settings(session);
  const auto pass = db::roll_up_backlog(
      session, db::RollupOptions{.late_after = std::chrono::seconds(cfg.rollup_late_check_seconds)},
      api::rate_limits(settings), std::chrono::seconds(*seconds));
  if (!pass.ran) {
    std::cout << "another rollup runner is at it; nothing done\n";
    return 3;
  }
  db::record_background_run(session, "rollup", true, "placardctl");
  std::cout << "counted " << pass.impressions << " impressions, " << pass.clicks << " clicks, "
            << pass.ignored << " ignored events";
  if (pass.late > 0) std::cout << "; " << pass.late << " of earlier spans, late commits";
  std::cout << "\n";
  return 0;
}

}  // namespace placard::ctl
