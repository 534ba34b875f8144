#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace placard::crypto {

// Threads of their own for password hashes, at a lower CPU priority (nice +10, best effort) than
// the request threads: while a hash runs, the public API's requests get the processor first.
// run() hands the work over and waits for it (the caller holds a HashSlots permit, so there is
// always a free thread).
class HashThreads {
 public:
  explicit HashThreads(int threads, int nice = 10);
  ~HashThreads();
  HashThreads(const HashThreads&) = delete;
  HashThreads& operator=(const HashThreads&) = delete;

  template <typename Work>
  auto run(Work&& work) -> decltype(work()) {
    // Shared with the job, so that the task outlives its run even when the caller, woken by the
    // result, has already left.
    auto task = std::make_shared<std::packaged_task<decltype(work())()>>(std::forward<Work>(work));
    auto result = task->get_future();
    post([task] { (*task)(); });
    return result.get();  // rethrows what the work threw
  }

 private:
  void post(std::function<void()> job);
  void loop(int nice);

  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // last: started once everything above exists
};

}  // namespace placard::crypto
