#include "lib/journal/click_journal.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "lib/journal/record_format.h"

namespace placard::journal {

namespace {

constexpr std::size_t kChunk = 500;  // records per sink write (one multi-row INSERT IGNORE)

}  // namespace

ClickJournal::ClickJournal(JournalSettings settings, Report report)
    : settings_(std::move(settings)), report_(std::move(report)) {
  while (settings_.dir.size() > 1 && settings_.dir.back() == '/') settings_.dir.pop_back();
}

ClickJournal::~ClickJournal() {
  // An active file that never got a record goes; one with records stays for the next replay
  // (this process's successor, or any other on the host).
  try {
    if (active_.is_open() && active_.bytes() == 0) active_.remove();
  } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): an empty file is harmless
  }
}

void ClickJournal::problem(const std::string& message) {
  if (message == last_problem_) return;  // once until something succeeds again
  last_problem_ = message;
  if (report_) report_("click journal: " + message);
}

bool ClickJournal::ready_locked() {
  if (active_.is_open()) return true;
  try {
    if (::mkdir(settings_.dir.c_str(), 0700) != 0 && errno != EEXIST) {
      throw std::system_error(errno, std::generic_category(), "cannot create " + settings_.dir);
    }
    active_ = JournalFile::create(settings_.dir);
    return true;
  } catch (const std::exception& e) {
    problem(std::string(e.what()) + ": clicks answer 503 while the database is down");
    return false;
  }
}

bool ClickJournal::append(const db::EventRecord& event) {
  if (!enabled()) return false;
  const std::string bytes = encode_record(event);
  const std::lock_guard lock(mutex_);
  if (!ready_locked()) {
    ++refused_;
    return false;
  }
  std::uint64_t total = 0;  // every process's files on this host, this one's included
  for (const auto& f : list_journal_files(settings_.dir)) total += f.bytes;
  if (total + bytes.size() > settings_.max_bytes) {
    ++refused_;
    problem("full (" + std::to_string(total) + " of " + std::to_string(settings_.max_bytes) +
            " bytes in " + settings_.dir + "): clicks answer 503 until the database returns");
    return false;
  }
  if (!active_.append(bytes)) {
    ++refused_;
    problem("cannot write " + active_.path() + ": " + std::strerror(errno));
    return false;
  }
  last_problem_.clear();
  active_.set_records(active_.records() + 1);
  bytes_ += bytes.size();
  ++records_;
  return true;
}

bool ClickJournal::replay_file(JournalFile& file, ClickSink& sink, ReplayReport& report) {
  try {
    const Decoded d = decode_records(file.read_all());
    for (std::size_t at = 0; at < d.records.size(); at += kChunk) {
      const auto end = std::min(d.records.size(), at + kChunk);
      sink.write(std::vector<db::EventRecord>(d.records.begin() + static_cast<long>(at),
                                              d.records.begin() + static_cast<long>(end)));
    }
    file.remove();
    ++report.files;
    report.records += d.records.size();
    if (d.torn_at) {
      report.torn_bytes += d.torn_bytes;
      report.torn.push_back(file.path() + ": " + std::to_string(d.torn_bytes) +
                            " unreadable bytes at offset " + std::to_string(*d.torn_at) +
                            " skipped (a record torn by a crash)");
    }
    return true;
  } catch (const std::exception& e) {
    report.error = e.what();
    return false;
  }
}

ReplayReport ClickJournal::replay(ClickSink& sink) {
  ReplayReport report;
  if (!enabled()) return report;
  const std::lock_guard lock(replay_mutex_);
  const auto forget = [this](const JournalFile& f) {
    bytes_ -= std::min<std::uint64_t>(bytes_, f.bytes());
    records_ -= std::min<std::uint64_t>(records_, f.records());
  };
  // This process's files sealed by an earlier pass that could not write them.
  while (!held_.empty()) {
    if (!replay_file(held_.front(), sink, report)) return report;
    forget(held_.front());
    held_.erase(held_.begin());
  }
  // Files no live process holds: a process that died (or this one's predecessor). The files of
  // live processes, this one's active file included, are locked and skipped.
  for (const auto& entry : list_journal_files(settings_.dir)) {
    JournalFile f = JournalFile::claim(entry.path);
    if (f.is_open() && !replay_file(f, sink, report)) return report;
  }
  // This process's active file, sealed: appends from now on go to a new one.
  JournalFile sealed;
  {
    const std::lock_guard append_lock(mutex_);
    if (active_.is_open() && active_.bytes() > 0) sealed = std::move(active_);
  }
  if (sealed.is_open()) {
    if (!replay_file(sealed, sink, report)) {
      held_.push_back(std::move(sealed));
      return report;
    }
    forget(sealed);
  }
  return report;
}

JournalGauge ClickJournal::gauge() const {
  return {bytes_.load(), records_.load(), refused_.load()};
}

}  // namespace placard::journal
