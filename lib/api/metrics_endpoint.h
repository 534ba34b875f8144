#pragma once
#include <array>

#include "lib/config/metrics_config.h"
#include "lib/http/client_address.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/metrics/registry.h"

namespace placard::api {

// GET {base}/metrics: the worker's registry in the Prometheus text format 0.0.4, for operators
// only (it shows internals: request rates, queue depths, snapshot age). Answered when
// metrics.enabled, to a client (http::client_address: the peer, or X-Forwarded-For through
// trusted_proxies) inside metrics.allow, and, when metrics.token is set, with
// `Authorization: Bearer <token>` (compared in constant time). Anything else: 404 not_found,
// the answer for a path that does not exist, so the endpoint is not even revealed.
class MetricsEndpoint {
 public:
  MetricsEndpoint(const metrics::Registry& registry, const config::MetricsConfig& config,
                  http::TrustedProxies trusted_proxies);
  bool allowed(const http::Request& request) const;
  http::Response answer(const http::Request& request) const;

 private:
  const metrics::Registry& registry_;
  bool enabled_;
  bool any_address_;
  http::TrustedProxies allow_;
  bool token_required_;
  std::array<unsigned char, 32> token_digest_{};
  http::TrustedProxies trusted_proxies_;
};

// The handler: 404 when `endpoint` is null (CGI, tests) or the request is not allowed.
http::Response get_metrics(const http::Request& request, const MetricsEndpoint* endpoint);

}  // namespace placard::api
