#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp, fcgi-app and placardctl include this header (it needs
// mysql_session.h).
#include <string>
#include <vector>

#include "lib/db/mysql_session.h"
#include "lib/store/background_run.h"

namespace placard::db {

// Records that `job` (rollup, retention, sync) ran now, and whether it succeeded, in
// background_runs (sql/0010). `runner` says who ran it: "worker" or "placardctl" (cron). Never
// throws: a failed record must not fail the work it records (the next pass records again).
void record_background_run(MysqlSession& session, const std::string& job, bool ok,
                           const std::string& runner) noexcept;

// Every job's last run, by job name.
std::vector<BackgroundRun> read_background_runs(MysqlSession& session);

}  // namespace placard::db
