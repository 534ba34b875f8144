#include "lib/store/background_runs.h"

namespace placard::db {

void record_background_run(MysqlSession& session, const std::string& job, bool ok,
                           const std::string& runner) noexcept {
  try {
    session.run(true, [&](MysqlSession& s) {
      auto& st = s.prepared(
          "INSERT INTO background_runs (job, ran_at, ok, runner) VALUES (?, UTC_TIMESTAMP(), ?, ?) "
          "ON DUPLICATE KEY UPDATE ran_at = VALUES(ran_at), ok = VALUES(ok), "
          "runner = VALUES(runner)");
      st.setString(1, job);
      st.setBoolean(2, ok);
      st.setString(3, runner);
      st.executeUpdate();
    });
  } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): the next pass records again
  }
}

std::vector<BackgroundRun> read_background_runs(MysqlSession& session) {
  return session.run(true, [](MysqlSession& s) {
    const auto rs = query(s.prepared(
        "SELECT job, UNIX_TIMESTAMP(ran_at), ok, runner FROM background_runs ORDER BY job"));
    std::vector<BackgroundRun> runs;
    while (rs->next()) {
      runs.push_back({rs->getString(1).asStdString(), rs->getInt64(2), rs->getBoolean(3),
                      rs->getString(4).asStdString()});
    }
    return runs;
  });
}

}  // namespace placard::db
