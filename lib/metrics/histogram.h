#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace placard::metrics {

// A latency histogram with fixed upper bounds, observed in whole microseconds from any thread
// (integer compares and relaxed atomic adds: no floating point, no lock on the hot path).
// Buckets are kept per interval and made cumulative when read, and the count is the sum of the
// buckets, so a reader never sees a count that disagrees with the +Inf bucket.
class Histogram {
 public:
  static constexpr std::size_t kMaxBounds = 24;

  // Upper bounds in microseconds, strictly increasing, at most kMaxBounds (+Inf is implied).
  // Throws std::invalid_argument otherwise.
  explicit Histogram(const std::vector<std::uint64_t>& bounds_micros);
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  void observe_micros(std::uint64_t micros);

  struct Reading {
    std::vector<std::uint64_t> bounds_micros;  // the finite bounds
    std::vector<std::uint64_t> cumulative;     // one per finite bound, then +Inf (= count)
    std::uint64_t sum_micros = 0;
    std::uint64_t count() const { return cumulative.empty() ? 0 : cumulative.back(); }
  };
  Reading read() const;

 private:
  std::size_t size_;  // finite bounds in use
  std::array<std::uint64_t, kMaxBounds> bounds_{};
  std::array<std::atomic<std::uint64_t>, kMaxBounds + 1> buckets_{};  // non-cumulative
  std::atomic<std::uint64_t> sum_{0};
};

// Latency bounds for requests answered by the worker: 0.25 ms to 10 s. The offers query takes
// tenths of a millisecond, an impression waits for a batch commit (milliseconds), an admin
// statistics query may take seconds.
std::vector<std::uint64_t> request_latency_bounds();

}  // namespace placard::metrics
