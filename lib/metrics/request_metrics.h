#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lib/metrics/counter.h"
#include "lib/metrics/histogram.h"
#include "lib/metrics/registry.h"

namespace placard::metrics {

// What a route family is: a few names for the paths the worker answers, so the number of series
// stays fixed whatever paths clients send (an offer id in a click path is not a label).
enum class Route : std::uint8_t {
  offers_query,
  impression,
  click,
  config,
  categories,
  healthz,
  admin,
  metrics,
  other,
};
inline constexpr std::size_t kRoutes = 9;
std::string_view route_name(Route route);
// The family of a path relative to the base path (as the service leaves request.path after
// routing); a path outside the base is `other`.
Route route_of(std::string_view path);

// Requests answered by the worker pool, counted by route family and status class, and their
// latency (from accept to the answer handed to the web server) by route family. Every series
// is registered up front (all zero at start), so observe() only finds two array slots and adds.
class RequestMetrics {
 public:
  explicit RequestMetrics(Registry& registry);
  void observe(std::string_view path, int status, std::uint64_t micros) const;

 private:
  static constexpr std::size_t kClasses = 5;  // 1xx .. 5xx
  std::array<std::array<Counter*, kClasses>, kRoutes> requests_{};
  std::array<Histogram*, kRoutes> latency_{};
};

}  // namespace placard::metrics
