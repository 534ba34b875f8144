#include "lib/process/heap_trimmer.h"

#include <utility>

namespace placard::process {

HeapTrimmer::HeapTrimmer(std::chrono::milliseconds interval, std::function<void()> trim)
    : interval_(interval), trim_(std::move(trim)), thread_([this] { run(); }) {}

HeapTrimmer::~HeapTrimmer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

void HeapTrimmer::run() {
  std::unique_lock lock(mutex_);
  while (!stop_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    trim_();
    lock.lock();
  }
}

}  // namespace placard::process
