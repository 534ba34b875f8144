#pragma once
// Only fcgi-app includes this header (it needs mysql_session.h).
#include <chrono>
#include <functional>
#include <string>

#include "lib/jobs/periodic_job.h"
#include "lib/journal/click_journal.h"

namespace placard::journal {

// Each FastCGI worker's replay of the host's click journal: a pass at start and every `interval`
// (a readdir when there is nothing to do; the database is only touched when a file is there).
// Reports what each pass wrote, torn records it skipped, and the first failure of a streak.
class ReplayJob {
 public:
  using Report = std::function<void(const std::string&)>;
  ReplayJob(ClickJournal& journal, db::ConnectionParams params, std::chrono::milliseconds interval,
            Report report);
  void stop() { job_.stop(); }

 private:
  void pass(db::MysqlSession& session);
  ClickJournal& journal_;
  Report report_;
  bool failing_ = false;
  db::PeriodicJob job_;  // last: its thread starts after everything above is ready
};

}  // namespace placard::journal
