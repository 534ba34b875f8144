#pragma once
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace placard::fcgi {

// Turns at accept() and at answering, fewer than the threads that take them (issue 24). Under
// load the same few threads then take request after request from accept() (as a plain pool
// does), instead of each request waking a different one of dozens of sleeping intake threads
// (a thread switch per request: our pool's own cost per request was 60 % above the plain one's).
// A thread gives its turn up only while a request's body is slow to arrive: a read that has
// waited `slow_after` for the web server loses the turn to a waiting thread (the watch thread
// does that), so bodies trickling in never hold the turns (hardening finding 1).
//
// A counter under a mutex, one waiter woken per turn given back: libstdc++ 12's
// std::counting_semaphore woke every waiting thread on each release (38 thread switches per
// request with 56 threads waiting, measured with perf stat).
class Turns {
 public:
  class Turn;

  Turns(int turns, std::chrono::milliseconds slow_after)
      : free_(turns), slow_after_(slow_after), watch_([this] { watch(); }) {}
  ~Turns() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    stop_.notify_all();
    watch_.join();
  }
  Turns(const Turns&) = delete;
  Turns& operator=(const Turns&) = delete;

  int free_turns() const {
    const std::lock_guard lock(mutex_);
    return free_;
  }

  // One thread's turn: taken (waiting for it) on construction.
  class Turn {
   public:
    explicit Turn(Turns& turns) : turns_(turns) { turns_.acquire(); }
    ~Turn() {
      if (held_) turns_.release();
    }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;

    // Around a read that may wait for the web server: a wait longer than slow_after gives the
    // turn away meanwhile.
    void waiting(bool starts) {
      const std::lock_guard lock(turns_.mutex_);
      auto& w = turns_.waiting_;
      if (starts) {
        since_ = std::chrono::steady_clock::now();
        w.push_back(this);
      } else {
        w.erase(std::remove(w.begin(), w.end(), this), w.end());
      }
    }
    // Gives the turn away at once (the thread is about to wait, not for its client).
    void give_up() {
      {
        const std::lock_guard lock(turns_.mutex_);
        if (!held_) return;
        held_ = false;
        ++turns_.free_;
      }
      turns_.given_back_.notify_one();
    }
    // Before the next accept(): a turn given away is taken again (waiting for one).
    void take() {
      if (!held_) turns_.acquire();
      held_ = true;
    }
    bool held() const { return held_; }

   private:
    friend class Turns;
    Turns& turns_;
    bool held_ = true;  // the watch thread changes it only while this turn is in waiting_
    std::chrono::steady_clock::time_point since_{};
  };

 private:
  void acquire() {
    std::unique_lock lock(mutex_);
    given_back_.wait(lock, [&] { return free_ > 0; });
    --free_;
  }
  void release() {
    {
      const std::lock_guard lock(mutex_);
      ++free_;
    }
    given_back_.notify_one();
  }

  void watch() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      stop_.wait_for(lock, slow_after_ / 2);
      const auto now = std::chrono::steady_clock::now();
      for (Turn* t : waiting_) {
        if (t->held_ && now - t->since_ >= slow_after_) {
          t->held_ = false;
          ++free_;
          given_back_.notify_one();
        }
      }
    }
  }

  mutable std::mutex mutex_;
  std::condition_variable given_back_;
  std::condition_variable stop_;
  int free_;
  bool stopping_ = false;
  std::vector<Turn*> waiting_;
  const std::chrono::milliseconds slow_after_;
  std::thread watch_;  // last: starts once the rest is made
};

}  // namespace placard::fcgi
