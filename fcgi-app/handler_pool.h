#pragma once
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace placard::fcgi {

// At most `size` handlers (each with its own database connection, random generators and
// scratch space), made once by the factory, lent to whichever thread has a request ready.
// A thread that finds them all lent waits for one to come back. Lending costs a mutex, where
// handing each request to a dedicated request thread and waiting for its answer cost two
// thread switches per request (issue 24).
template <typename Handler>
class HandlerPool {
 public:
  class Lease {
   public:
    Lease(HandlerPool& pool, std::unique_ptr<Handler> handler)
        : pool_(&pool), handler_(std::move(handler)) {}
    ~Lease() {
      if (handler_) pool_->give_back(std::move(handler_));
    }
    Lease(Lease&& other) noexcept = default;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    Handler& operator*() const { return *handler_; }
    Handler* operator->() const { return handler_.get(); }

   private:
    HandlerPool* pool_;
    std::unique_ptr<Handler> handler_;
  };

  HandlerPool(const std::function<std::unique_ptr<Handler>()>& factory, int size) {
    if (size < 1) throw std::invalid_argument("a handler pool needs at least one handler");
    idle_.reserve(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) idle_.push_back(factory());
  }

  // A handler for one request; waits while all are lent. The most recently returned one comes
  // first (its memory is the most likely to be in the cache).
  Lease lease() {
    std::unique_lock lock(mutex_);
    if (idle_.empty()) {
      ++waiting_;
      returned_.wait(lock, [&] { return !idle_.empty(); });
      --waiting_;
    }
    auto handler = std::move(idle_.back());
    idle_.pop_back();
    return Lease(*this, std::move(handler));
  }

  std::size_t idle() const {
    const std::lock_guard lock(mutex_);
    return idle_.size();
  }
  // Requests read and waiting for a handler (the hand-off queue).
  int waiting() const {
    const std::lock_guard lock(mutex_);
    return waiting_;
  }

 private:
  void give_back(std::unique_ptr<Handler> handler) {
    bool wake = false;
    {
      const std::lock_guard lock(mutex_);
      idle_.push_back(std::move(handler));
      wake = waiting_ > 0;
    }
    if (wake) returned_.notify_one();
  }

  mutable std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<Handler>> idle_;
  int waiting_ = 0;
};

}  // namespace placard::fcgi
