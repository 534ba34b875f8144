#include "group_commit.h"

#include <unistd.h>

#include <cerrno>

namespace bare {

GroupCommit::GroupCommit(int fd)
    : fd_(fd), thread_([this](const std::stop_token& stop) { flusher(stop); }) {}

GroupCommit::~GroupCommit() {
  thread_.request_stop();
  work_.notify_all();
}

bool GroupCommit::append(std::string_view record, Waiter& me) {
  std::unique_lock lock(mutex_);
  if (failed_) return false;
  const bool idle = pending_.empty();
  pending_.append(record);
  me.done = false;
  waiting_.push_back(&me);
  lock.unlock();
  if (idle) work_.notify_one();
  lock.lock();
  me.woken.wait(lock, [&] { return me.done; });
  return !failed_;
}

void GroupCommit::flusher(const std::stop_token& stop) {
  std::string batch;
  std::vector<Waiter*> covered;
  std::unique_lock lock(mutex_);
  while (work_.wait(lock, stop, [&] { return !pending_.empty(); })) {
    // Everything pending goes in one write and one fdatasync, outside the lock, so that the
    // records arriving meanwhile gather for the next flush.
    batch.swap(pending_);
    covered.swap(waiting_);
    lock.unlock();
    const bool ok = !failed_ && flush(batch);
    lock.lock();
    if (!ok) failed_ = true;
    for (Waiter* w : covered) {
      w->done = true;
      w->woken.notify_one();
    }
    batch.clear();
    covered.clear();
  }
}

bool GroupCommit::flush(const std::string& batch) const {
  std::string_view rest = batch;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  return ::fdatasync(fd_) == 0;
}

}  // namespace bare
