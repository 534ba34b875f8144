#include "lib/metrics/request_metrics.h"

#include <string>

namespace placard::metrics {

namespace {

constexpr std::array<std::string_view, kRoutes> kRouteNames = {
    "offers_query", "impression", "click",   "config", "categories",
    "healthz",      "admin",      "metrics", "other"};
constexpr std::array<std::string_view, 5> kClassNames = {"1xx", "2xx", "3xx", "4xx", "5xx"};

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string_view route_name(Route route) {
  return kRouteNames[static_cast<std::size_t>(route)];
}

Route route_of(std::string_view path) {
  if (starts_with(path, "/api/v1/")) {
    const auto rest = path.substr(8);
    if (rest == "offers/query") return Route::offers_query;
    if (rest == "events/impression") return Route::impression;
    if (rest == "config") return Route::config;
    if (rest == "categories") return Route::categories;
    return Route::other;
  }
  if (starts_with(path, "/r/click/")) return Route::click;
  if (starts_with(path, "/admin/api/")) return Route::admin;
  if (path == "/healthz") return Route::healthz;
  if (path == "/metrics") return Route::metrics;
  return Route::other;
}

RequestMetrics::RequestMetrics(Registry& registry) {
  const std::string counted =
      "Requests answered by this worker process, by route family and "
      "status class";
  const std::string timed =
      "Time from accepting a request to handing its answer to the web "
      "server, by route family";
  const auto bounds = request_latency_bounds();
  for (std::size_t r = 0; r < kRoutes; ++r) {
    const std::string route(kRouteNames[r]);
    for (std::size_t c = 0; c < kClasses; ++c) {
      requests_[r][c] =
          &registry.counter("placard_http_requests_total", counted,
                            {{"route", route}, {"code", std::string(kClassNames[c])}});
    }
    latency_[r] = &registry.histogram("placard_http_request_duration_seconds", timed,
                                      {{"route", route}}, bounds);
  }
}

void RequestMetrics::observe(std::string_view path, int status, std::uint64_t micros) const {
  const auto r = static_cast<std::size_t>(route_of(path));
  const int c = status / 100 - 1;
  requests_[r][c >= 0 && c < static_cast<int>(kClasses) ? static_cast<std::size_t>(c) : 4]->add();
  latency_[r]->observe_micros(micros);
}

}  // namespace placard::metrics
