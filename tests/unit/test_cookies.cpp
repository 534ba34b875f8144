// http::cookie_value: one cookie out of a Cookie header.
#include "lib/http/cookies.h"

#include <gtest/gtest.h>

namespace {

using placard::http::cookie_value;

TEST(HttpCookies, FindsTheNamedCookie) {
  EXPECT_EQ(cookie_value("a=1; b=2; c=3", "b"), "2");
  EXPECT_EQ(cookie_value("a=1; b=2; c=3", "a"), "1");
  EXPECT_EQ(cookie_value("a=1; b=2; c=3", "c"), "3");
  EXPECT_EQ(cookie_value("placard_session=abc", "placard_session"), "abc");
}

TEST(HttpCookies, AbsentIsNullopt) {
  EXPECT_EQ(cookie_value("", "a"), std::nullopt);
  EXPECT_EQ(cookie_value("a=1; b=2", "c"), std::nullopt);
  EXPECT_EQ(cookie_value("ab=1", "a"), std::nullopt);
  EXPECT_EQ(cookie_value("xa=1", "a"), std::nullopt);
  EXPECT_EQ(cookie_value("a; b", "a"), std::nullopt);  // no '=': not a cookie pair
}

TEST(HttpCookies, NamesAreCaseSensitive) {
  EXPECT_EQ(cookie_value("Placard_Session=x", "placard_session"), std::nullopt);
  EXPECT_EQ(cookie_value("Placard_Session=x; placard_session=y", "placard_session"), "y");
}

TEST(HttpCookies, SpacesAroundPairsAndQuotes) {
  EXPECT_EQ(cookie_value("  a = 1 ;b=2  ", "a"), "1");
  EXPECT_EQ(cookie_value("a=1;b=2", "b"), "2");
  EXPECT_EQ(cookie_value("a=\"quoted value\"", "a"), "quoted value");
  EXPECT_EQ(cookie_value("a=\"", "a"), "\"");  // one quote alone is kept
  EXPECT_EQ(cookie_value("a=", "a"), "");
}

TEST(HttpCookies, ValueIsKeptAsSent) {
  EXPECT_EQ(cookie_value("t=a%20b=c", "t"), "a%20b=c");  // no decoding; '=' inside kept
  EXPECT_EQ(
      cookie_value("__Host-placard_session=tok; placard_session=other", "__Host-placard_session"),
      "tok");
}

TEST(HttpCookies, TheFirstOfTwoWins) {
  EXPECT_EQ(cookie_value("a=1; a=2", "a"), "1");
}

}  // namespace
