#include "lib/metrics/histogram.h"

#include <stdexcept>

namespace placard::metrics {

Histogram::Histogram(const std::vector<std::uint64_t>& bounds_micros)
    : size_(bounds_micros.size()) {
  if (size_ > kMaxBounds) throw std::invalid_argument("a histogram has at most 24 bounds");
  for (std::size_t i = 0; i < size_; ++i) {
    if (i > 0 && bounds_micros[i] <= bounds_micros[i - 1]) {
      throw std::invalid_argument("histogram bounds must increase");
    }
    bounds_[i] = bounds_micros[i];
  }
}

void Histogram::observe_micros(std::uint64_t micros) {
  std::size_t i = 0;
  while (i < size_ && micros > bounds_[i]) ++i;  // a value equal to a bound belongs to it (le)
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(micros, std::memory_order_relaxed);
}

Histogram::Reading Histogram::read() const {
  Reading r;
  r.bounds_micros.assign(bounds_.begin(), bounds_.begin() + static_cast<std::ptrdiff_t>(size_));
  std::uint64_t running = 0;
  for (std::size_t i = 0; i <= size_; ++i) {
    running += buckets_[i].load(std::memory_order_relaxed);
    r.cumulative.push_back(running);
  }
  r.sum_micros = sum_.load(std::memory_order_relaxed);
  return r;
}

std::vector<std::uint64_t> request_latency_bounds() {
  return {250,   500,    1000,   2500,   5000,    10000,   25000,
          50000, 100000, 250000, 500000, 1000000, 2500000, 10000000};
}

}  // namespace placard::metrics
