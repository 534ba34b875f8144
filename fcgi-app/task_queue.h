#pragma once
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace placard::fcgi {

// Hands work from the intake threads to the request threads: push() never blocks, pop() waits
// for work and returns nullopt once the queue is closed and empty.
template <typename Task>
class TaskQueue {
 public:
  void push(Task task) {
    {
      const std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    ready_.notify_one();
  }

  std::optional<Task> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return closed_ || !tasks_.empty(); });
    if (tasks_.empty()) return std::nullopt;
    Task task = std::move(tasks_.front());
    tasks_.pop_front();
    return task;
  }

  // No more pushes: pop() drains what is left, then returns nullopt.
  void close() {
    {
      const std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> tasks_;
  bool closed_ = false;
};

}  // namespace placard::fcgi
