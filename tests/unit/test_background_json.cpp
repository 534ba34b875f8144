#include <gtest/gtest.h>

#include "lib/admin/stats_handlers.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"

namespace placard {
namespace {

TEST(BackgroundJson, EveryJobInOrderWithNullsForTheNeverRun) {
  const std::vector<db::BackgroundRun> runs{{"sync", 1767225600, false, "placardctl"},
                                            {"rollup", 1767225660, true, "worker"}};
  EXPECT_EQ(
      admin::background_json(runs),
      R"({"jobs":[{"job":"rollup","lastRunAt":"2026-01-01T00:01:00Z","ok":true,)"
      R"("runner":"worker"},{"job":"retention","lastRunAt":null,"ok":null,"runner":null},)"
      R"({"job":"sync","lastRunAt":"2026-01-01T00:00:00Z","ok":false,"runner":"placardctl"}]})");
}

TEST(BackgroundJobsSetting, WorkersByDefaultCronOnRequestNothingElse) {
  EXPECT_EQ(config::server_config_from({}).background_jobs, "workers");
  EXPECT_EQ(config::server_config_from({{"background_jobs", "cron"}}).background_jobs, "cron");
  EXPECT_THROW(config::server_config_from({{"background_jobs", "sometimes"}}), config::ConfigError);
  const auto rendered =
      config::render_server_config(config::server_config_from({{"background_jobs", "cron"}}));
  EXPECT_NE(rendered.find("\nbackground_jobs = cron\n"), std::string::npos);
}

}  // namespace
}  // namespace placard
