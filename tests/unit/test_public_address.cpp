// The config keys public_origin and base_path: what each accepts, how the origin is normalised
// and how the base path is stripped from a request's path.
#include "lib/config/public_address.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

using placard::config::check_base_path;
using placard::config::check_public_origin;
using placard::config::normalize_public_origin;

TEST(PublicOrigin, OnlySchemeHostAndPort) {
  for (const char* good :
       {"https://example.com", "http://127.0.0.1:8080", "https://[::1]:8443",
        "https://a-b.example.co.uk", "HTTPS://Example.COM", "http://localhost"}) {
    EXPECT_EQ(check_public_origin(good), "") << good;
  }
  for (const char* bad : {"",
                          "example.com",
                          "ftp://example.com",
                          "https://",
                          "https://example.com/",
                          "https://example.com/offers",
                          "https://user@example.com",
                          "https://example.com?x",
                          "https://example.com#f",
                          "https://example.com:",
                          "https://example.com:0",
                          "https://example.com:65536",
                          "https://example.com:80x",
                          "https://-a.example",
                          "https://a..example",
                          "https://[::1",
                          "https://[zz]",
                          "https://exa mple.com",
                          "https://example.com\\x",
                          "https://*.example.com"}) {
    EXPECT_NE(check_public_origin(bad), "") << bad;
  }
}

TEST(PublicOrigin, NormalisedAsBrowsersSendIt) {
  EXPECT_EQ(normalize_public_origin("HTTPS://Example.COM:443"), "https://example.com");
  EXPECT_EQ(normalize_public_origin("http://Example.com:80"), "http://example.com");
  EXPECT_EQ(normalize_public_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  EXPECT_EQ(normalize_public_origin("https://example.com:80"), "https://example.com:80");
}

TEST(BasePath, Validated) {
  for (const char* good : {"", "/offers", "/tools/offers", "/a_b-c.d~e", "/x"}) {
    EXPECT_EQ(check_base_path(good), "") << good;
  }
  for (const char* bad : {"/", "offers", "/offers/", "//offers", "/a//b", "/a/./b", "/..", "/a b",
                          "/a%20b", "/a?b", "/ä", "/a;b", "/a\"b"}) {
    EXPECT_NE(check_base_path(bad), "") << bad;
  }
  EXPECT_NE(check_base_path("/" + std::string(200, 'a')), "");
}

TEST(BasePath, Stripped) {
  std::string_view rest;
  ASSERT_TRUE(placard::config::strip_base_path("", "/api/v1/config", rest));
  EXPECT_EQ(rest, "/api/v1/config");
  ASSERT_TRUE(placard::config::strip_base_path("/offers", "/offers/api/v1/config", rest));
  EXPECT_EQ(rest, "/api/v1/config");
  ASSERT_TRUE(placard::config::strip_base_path("/offers", "/offers", rest));
  EXPECT_EQ(rest, "");
  EXPECT_FALSE(placard::config::strip_base_path("/offers", "/api/v1/config", rest));
  EXPECT_FALSE(placard::config::strip_base_path("/offers", "/offersX/api/v1/config", rest));
  EXPECT_FALSE(placard::config::strip_base_path("/offers", "/offer", rest));
}

}  // namespace
