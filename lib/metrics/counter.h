#pragma once
#include <atomic>
#include <cstdint>

namespace placard::metrics {

// A monotonic count, added to from any thread. One relaxed atomic add (a single `lock xadd`)
// per call: no lock, no allocation, nothing that orders other memory. Aligned to its own cache
// line so that two counters bumped by different cores do not share one.
class alignas(64) Counter {
 public:
  void add(std::uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

}  // namespace placard::metrics
