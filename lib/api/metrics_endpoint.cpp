#include "lib/api/metrics_endpoint.h"

#include <openssl/crypto.h>

#include <string_view>

#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"

namespace placard::api {

namespace {

std::array<unsigned char, 32> digest(std::string_view text) {
  return crypto::sha256(text);
}

// The token of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 6750); empty when
// there is none.
std::string_view bearer_token(const http::Request& request) {
  const std::string_view value = request.header("authorization");
  if (value.size() < 7) return {};
  const std::string_view scheme = value.substr(0, 7);
  static constexpr std::string_view kBearer = "bearer ";
  for (std::size_t i = 0; i < kBearer.size(); ++i) {
    const char c = scheme[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != kBearer[i]) return {};
  }
  auto token = value.substr(7);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  return token;
}

}  // namespace

MetricsEndpoint::MetricsEndpoint(const metrics::Registry& registry,
                                 const config::MetricsConfig& config,
                                 http::TrustedProxies trusted_proxies)
    : registry_(registry),
      enabled_(config.enabled),
      allow_(http::TrustedProxies::parse(config.allow)),
      token_required_(!config.token.empty()),
      trusted_proxies_(std::move(trusted_proxies)) {
  any_address_ = allow_.empty();
  if (token_required_) token_digest_ = digest(config.token);
  if (enabled_ && any_address_ && !token_required_) {
    enabled_ = false;  // config::check_metrics_config refuses this; never open to everyone
  }
}

bool MetricsEndpoint::allowed(const http::Request& request) const {
  if (!enabled_) return false;
  if (!any_address_) {
    const auto ip = http::parse_ip(http::client_address(request, trusted_proxies_));
    if (!ip || !allow_.contains(*ip)) return false;
  }
  if (!token_required_) return true;
  const auto sent = bearer_token(request);
  if (sent.empty()) return false;
  const auto d = digest(sent);
  return CRYPTO_memcmp(d.data(), token_digest_.data(), d.size()) == 0;
}

http::Response MetricsEndpoint::answer(const http::Request& request) const {
  if (!allowed(request)) throw http::not_found();
  http::Response response;
  response.status = 200;
  response.body = registry_.render();
  response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  response.set_header("Cache-Control", "no-store");
  return response;
}

http::Response get_metrics(const http::Request& request, const MetricsEndpoint* endpoint) {
  if (endpoint == nullptr) throw http::not_found();
  return endpoint->answer(request);
}

}  // namespace placard::api
