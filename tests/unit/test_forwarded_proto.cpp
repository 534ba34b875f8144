// HTTPS as reported by trusted proxies only (Forwarded before X-Forwarded-Proto).
#include "lib/http/forwarded_proto.h"

#include <gtest/gtest.h>

#include "tests/unit/proxied_request.h"

namespace {

using placard::test::proxied;

TEST(ForwardedProto, OnlyFromTrustedProxies) {
  const auto trusted = placard::http::TrustedProxies::parse("127.0.0.1, 10.0.0.0/8");
  using placard::http::reached_over_https;
  EXPECT_TRUE(reached_over_https(proxied("192.0.2.1", {}, true), trusted));
  EXPECT_TRUE(reached_over_https(proxied("127.0.0.1", {{"x-forwarded-proto", "https"}}), trusted));
  EXPECT_TRUE(
      reached_over_https(proxied("10.1.2.3", {{"x-forwarded-proto", "http, HTTPS"}}), trusted));
  EXPECT_FALSE(
      reached_over_https(proxied("10.1.2.3", {{"x-forwarded-proto", "https, http"}}), trusted));
  EXPECT_TRUE(reached_over_https(
      proxied("127.0.0.1",
              {{"forwarded", "for=192.0.2.9;proto=http, for=1.2.3.4;Proto=\"https\""}}),
      trusted));
  // Forwarded wins over X-Forwarded-Proto when both are there.
  EXPECT_FALSE(reached_over_https(
      proxied("127.0.0.1", {{"forwarded", "proto=http"}, {"x-forwarded-proto", "https"}}),
      trusted));
  // An untrusted peer's headers count for nothing.
  EXPECT_FALSE(reached_over_https(proxied("192.0.2.1", {{"x-forwarded-proto", "https"}}), trusted));
  EXPECT_FALSE(reached_over_https(proxied("192.0.2.1", {{"forwarded", "proto=https"}}), trusted));
  EXPECT_FALSE(reached_over_https(proxied("127.0.0.1", {{"x-forwarded-proto", "https"}}),
                                  placard::http::TrustedProxies{}));
  EXPECT_EQ(placard::http::forwarded_proto("for=x;proto"), "");
}

}  // namespace
