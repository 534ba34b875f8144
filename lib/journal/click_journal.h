#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "lib/journal/click_sink.h"
#include "lib/journal/journal_file.h"
#include "lib/store/event_store.h"

namespace placard::journal {

struct JournalSettings {
  std::string dir;                                // empty: no journal (clicks answer 503 as before)
  std::uint64_t max_bytes = 64ULL * 1024 * 1024;  // the host's journal files together
};

// A cheap read-only view for the metrics endpoint: this process's clicks kept but not yet written
// to the database (its active file, the files it is replaying).
struct JournalGauge {
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
  std::uint64_t refused = 0;  // appends refused since start (journal full, or a write failed)
};

// What one replay pass did.
struct ReplayReport {
  std::size_t files = 0;          // files written and removed
  std::size_t records = 0;        // records written (duplicates of earlier writes included)
  std::size_t torn_bytes = 0;     // unreadable bytes skipped (a record torn by a crash)
  std::vector<std::string> torn;  // "path: N bytes at offset M", one per torn file
  std::string error;              // non-empty: the pass stopped here (the database is down)
};

// The host's click journal (docs/operations.md, "Click journal"): while the database is
// unreachable, a click the catalog snapshot shows valid is appended here, fsync'd, and redirected
// as usual; replay() writes the records through a ClickSink once the database answers, then
// removes the file. One file per process (`clicks-<pid>-<random>.jnl`, locked with flock while
// the process lives), all in one directory per host: a process's own appends need no lock
// across processes, and the file of a process that died is claimed by any live one. The size
// bound counts every file in the directory.
class ClickJournal {
 public:
  using Report = std::function<void(const std::string&)>;
  ClickJournal(JournalSettings settings, Report report);
  ~ClickJournal();
  ClickJournal(const ClickJournal&) = delete;
  ClickJournal& operator=(const ClickJournal&) = delete;

  // Appends the click and fsyncs it before returning true. False: no journal directory, the
  // host's journal is full, or the write failed (each reported; the caller answers 503).
  bool append(const db::EventRecord& event);

  // Writes every journal file of this host that no live process holds (this process's own
  // included) through the sink, then removes it. One pass at a time per process.
  ReplayReport replay(ClickSink& sink);

  JournalGauge gauge() const;
  bool enabled() const { return !settings_.dir.empty(); }
  const std::string& dir() const { return settings_.dir; }

 private:
  bool ready_locked();
  void problem(const std::string& message);  // reported once until an append succeeds
  bool replay_file(JournalFile& file, ClickSink& sink, ReplayReport& report);

  JournalSettings settings_;
  Report report_;
  std::mutex mutex_;               // active_ and the directory's state
  JournalFile active_;             // where appends go; opened at the first one
  std::string last_problem_;       // the last one reported
  std::mutex replay_mutex_;        // one replay pass at a time; held_ below
  std::vector<JournalFile> held_;  // sealed own files not yet written (the database was down)
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<std::uint64_t> records_{0};
  std::atomic<std::uint64_t> refused_{0};
};

}  // namespace placard::journal
