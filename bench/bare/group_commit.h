// The durable side of the bench's bare program (bare_fcgi --journal FILE): records appended to a
// file and made durable with fdatasync before the caller goes on. One flusher thread writes and
// fdatasyncs everything that arrived while its previous flush ran (group commit) and then wakes
// exactly the callers whose records that flush covered, each on its own condition variable (no
// herd of woken threads going back to sleep). Nothing of Placard's: the textbook shape of
// "answered only once it is on disk", as cheap as a thread-per-request program makes it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace bare {

class GroupCommit {
 public:
  // One per calling thread, reused from call to call: where that thread waits for its flush.
  struct Waiter {
    std::condition_variable woken;
    bool done = false;
  };

  explicit GroupCommit(int fd);
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;
  ~GroupCommit();

  // Appends the record and returns once it is on disk: true, or false when a write or an
  // fdatasync failed (every later call fails too: what was lost is unknown).
  bool append(std::string_view record, Waiter& me);

 private:
  void flusher(const std::stop_token& stop);
  bool flush(const std::string& batch) const;

  int fd_;
  std::mutex mutex_;
  std::condition_variable_any work_;  // the flusher waits here for records (or for its stop)
  std::string pending_;
  std::vector<Waiter*> waiting_;  // the callers whose records are in pending_
  bool failed_ = false;
  std::jthread thread_;  // last: started once everything above exists, joined first
};

}  // namespace bare
