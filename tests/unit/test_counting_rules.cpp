// Honest counting (issue 15): which requests are not counted (HEAD, prefetch, crawlers). The
// crawler list: test_bot_agents.cpp; the client address behind trusted proxies:
// test_client_address.cpp; the daily client hash: test_client_hasher.cpp; the limits' settings
// and windows: test_rate_limits.cpp.
#include "lib/api/counting_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/jobs/rate_limiter.h"

namespace {

using placard::db::IgnoredReason;
using placard::http::Request;

// ---- prefetch and the reason of a request ----------------------------------------------------

Request request(const std::string& method, std::vector<placard::http::Header> headers = {}) {
  Request r;
  r.method = method;
  r.headers = std::move(headers);
  return r;
}

TEST(CountingRules, PrefetchHeaders) {
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"sec-purpose", "prefetch"}})));
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"sec-purpose", "prefetch;prerender"}})));
  EXPECT_TRUE(
      placard::api::is_prefetch(request("GET", {{"sec-purpose", "prefetch;anonymous-client-ip"}})));
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"purpose", "Prefetch"}})));
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"x-moz", "prefetch"}})));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET")));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET", {{"sec-purpose", "prerender"}})));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET", {{"sec-fetch-mode", "prefetch"}})));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET", {{"purpose", "pref"}})));
}

TEST(CountingRules, ReasonsInOrder) {
  using placard::api::ignored_reason;
  EXPECT_EQ(ignored_reason(request("GET")), IgnoredReason::none);
  EXPECT_EQ(ignored_reason(request("POST", {{"user-agent", "Firefox/133.0"}})),
            IgnoredReason::none);
  EXPECT_EQ(ignored_reason(request("HEAD", {{"sec-purpose", "prefetch"}})), IgnoredReason::head);
  EXPECT_EQ(
      ignored_reason(request("GET", {{"sec-purpose", "prefetch"}, {"user-agent", "bingbot"}})),
      IgnoredReason::prefetch);
  EXPECT_EQ(
      ignored_reason(request("GET", {{"user-agent", "Mozilla/5.0 (compatible; bingbot/2.0)"}})),
      IgnoredReason::bot);
  EXPECT_EQ(placard::db::ignored_reason_name(IgnoredReason::rate_limited), "rate_limited");
  EXPECT_EQ(placard::db::ignored_reason_from("head"), IgnoredReason::head);
  EXPECT_EQ(placard::db::ignored_reason_from("none"), std::nullopt);
}

// ---- the settings ----------------------------------------------------------------------------

}  // namespace
