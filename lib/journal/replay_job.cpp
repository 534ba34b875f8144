#include "lib/journal/replay_job.h"

#include "lib/journal/mysql_click_sink.h"

namespace placard::journal {

ReplayJob::ReplayJob(ClickJournal& journal, db::ConnectionParams params,
                     std::chrono::milliseconds interval, Report report)
    : journal_(journal),
      report_(std::move(report)),
      job_(std::move(params), std::chrono::milliseconds(0), interval,
           [this](db::MysqlSession& s) { pass(s); }) {}

void ReplayJob::pass(db::MysqlSession& session) {
  MysqlClickSink sink(session);
  const ReplayReport r = journal_.replay(sink);
  for (const auto& t : r.torn) report_("click journal: " + t);
  if (r.files > 0) {
    report_("click journal: replayed " + std::to_string(r.records) + " clicks from " +
            std::to_string(r.files) + " file(s) (each counted once: INSERT IGNORE on the nonce)");
  }
  if (!r.error.empty()) {
    if (!failing_) report_("click journal: replay waits for the database: " + r.error);
    failing_ = true;
  } else {
    failing_ = false;
  }
}

}  // namespace placard::journal
