#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

namespace placard::network {

// Time for the adapters, so tests run without waiting.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::steady_clock::time_point now() = 0;
  virtual void sleep_for(std::chrono::milliseconds duration) = 0;
};

class SystemClock : public Clock {
 public:
  std::chrono::steady_clock::time_point now() override;
  void sleep_for(std::chrono::milliseconds duration) override;
};

// A client-side request limit: at most `per_minute` requests in any sliding 60 s window;
// acquire() waits (on the clock) until the next request may go.
class RateLimiter {
 public:
  RateLimiter(Clock& clock, int per_minute) : clock_(clock), per_minute_(per_minute) {}
  void acquire();

 private:
  Clock& clock_;
  int per_minute_;
  std::deque<std::chrono::steady_clock::time_point> sent_;
};

// Retries after "too many requests": at most `max_retries`, waiting Retry-After when the network
// gave one (capped), else base * 2^attempt.
struct BackoffPolicy {
  int max_retries = 4;
  std::chrono::milliseconds base{2000};
  std::chrono::milliseconds cap{60000};
  std::chrono::milliseconds delay(int attempt, std::optional<long> retry_after_seconds) const;
};

}  // namespace placard::network
