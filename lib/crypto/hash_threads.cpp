#include "lib/crypto/hash_threads.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

namespace placard::crypto {

HashThreads::HashThreads(int threads, int nice) {
  const int n = std::max(1, threads);
  threads_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) threads_.emplace_back([this, nice] { loop(nice); });
}

HashThreads::~HashThreads() {
  {
    const std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) t.join();
}

void HashThreads::post(std::function<void()> job) {
  {
    const std::lock_guard lock(mu_);
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void HashThreads::loop(int nice) {
  // Linux: the nice value of this thread only. Failure (a sandbox refusing it) leaves the
  // thread at the process's priority, which is still correct, only less kind.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice);
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace placard::crypto
