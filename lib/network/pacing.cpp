#include "lib/network/pacing.h"

#include <algorithm>
#include <thread>

namespace placard::network {

std::chrono::steady_clock::time_point SystemClock::now() {
  return std::chrono::steady_clock::now();
}

void SystemClock::sleep_for(std::chrono::milliseconds duration) {
  std::this_thread::sleep_for(duration);
}

void RateLimiter::acquire() {
  constexpr auto kWindow = std::chrono::seconds(60);
  if (per_minute_ <= 0) return;
  auto now = clock_.now();
  while (!sent_.empty() && now - sent_.front() >= kWindow) sent_.pop_front();
  if (static_cast<int>(sent_.size()) >= per_minute_) {
    const auto wait = sent_.front() + kWindow - now;
    clock_.sleep_for(std::chrono::ceil<std::chrono::milliseconds>(wait));
    now = clock_.now();
    while (!sent_.empty() && now - sent_.front() >= kWindow) sent_.pop_front();
  }
  sent_.push_back(now);
}

std::chrono::milliseconds BackoffPolicy::delay(int attempt,
                                               std::optional<long> retry_after_seconds) const {
  if (retry_after_seconds && *retry_after_seconds > 0) {
    // Compared in seconds first: a server's Retry-After times 1000 could overflow.
    if (*retry_after_seconds >= std::chrono::duration_cast<std::chrono::seconds>(cap).count()) {
      return cap;
    }
    return std::min(cap, std::chrono::milliseconds(*retry_after_seconds * 1000));
  }
  auto d = base;
  for (int i = 0; i < attempt && d < cap; ++i) d *= 2;
  return std::min(cap, d);
}

}  // namespace placard::network
