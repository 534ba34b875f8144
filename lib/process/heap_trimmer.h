#pragma once
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace placard::process {

// Hands the heap's free memory back to the operating system every `interval` (the worker passes
// malloc_trim): after a burst of events the request threads' arenas keep megabytes of freed
// blocks (issue 24: the worker's VmRSS right after the bench's event steps, 66 MiB at 100,000
// offers, 55 MiB once trimmed), and on a shared host resident memory is what the account pays
// for. A trim with nothing to return costs a walk of the free lists (microseconds). One thread;
// the destructor stops it at once.
class HeapTrimmer {
 public:
  HeapTrimmer(std::chrono::milliseconds interval, std::function<void()> trim);
  ~HeapTrimmer();
  HeapTrimmer(const HeapTrimmer&) = delete;
  HeapTrimmer& operator=(const HeapTrimmer&) = delete;

 private:
  void run();
  std::chrono::milliseconds interval_;
  std::function<void()> trim_;
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is made
};

}  // namespace placard::process
