#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/json/rapidjson.h"
#include "lib/network/adapter.h"
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

// One page of a network's offer list: {"<items>": [...], "<meta>": {"<count>": N, ...}, ...}.
struct PageShape {
  const char* items;
  const char* meta;
  const char* count;
  std::string_view what;  // "Admitad sent coupons": the start of the error's message
};
struct OfferListPage {
  std::vector<NetworkOffer> offers;  // the usable items
  std::uint64_t total = 0;           // what the network says it holds in all
  std::size_t results = 0;           // items on the page, usable or not
};
// Reads each item with `read_one` (nullopt: not usable, left out). Not JSON, or not that shape:
// NetworkError "<what> could not be read (not JSON | unexpected shape)".
OfferListPage parse_offer_page(
    std::string_view body, const PageShape& shape,
    const std::function<std::optional<NetworkOffer>(const rapidjson::Value&)>& read_one);

// The integer `error_code` of a network's JSON error body, if any.
std::optional<long> json_error_code(std::string_view body);

}  // namespace placard::network
