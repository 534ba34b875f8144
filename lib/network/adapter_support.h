#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "lib/network/http_client.h"
#include "lib/network/pacing.h"

namespace placard::network {

// What every adapter shares: where the network lives, how fast it may be asked, how long to back
// off. Tests shorten the back-off.
struct AdapterOptions {
  std::string api_base;  // no trailing '/'
  int per_minute = 0;    // client-side rate limit
  int page_size = 0;     // 0: the adapter's default
  BackoffPolicy backoff;
};

// Sends a request within the rate limit, retrying "too many requests" answers (the statuses
// given) with back-off. No answer at all: NetworkError "<Network> could not be reached: ...";
// still limited after the last retry: NetworkError "<Network> kept refusing requests ...".
class PacedSender {
 public:
  PacedSender(HttpClient& http, Clock& clock, const AdapterOptions& options, std::string label)
      : http_(http),
        clock_(clock),
        limiter_(clock, options.per_minute),
        options_(options),
        label_(std::move(label)) {}
  HttpResponse send(const HttpRequest& request, int limited_status, int limited_status2);

 private:
  HttpClient& http_;
  Clock& clock_;
  RateLimiter limiter_;
  const AdapterOptions& options_;
  std::string label_;
};

// application/x-www-form-urlencoded value / URL query value encoding (RFC 3986 unreserved kept).
std::string form_encode(std::string_view value);

// The integer `error_code` of a network's JSON error body, if any.
std::optional<long> json_error_code(std::string_view body);

}  // namespace placard::network
