#include "lib/api/clicks.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using placard::api::is_safe_redirect_target;
using placard::api::sub_id_parameter;
using placard::api::with_query_param;

TEST(ClickRedirectTarget, HttpAndHttpsAccepted) {
  for (const char* url :
       {"https://www.example.com/", "http://example.com", "https://ad.admitad.com/g/abc123/?x=1",
        "https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&p=https%3A%2F%2Fshop.example",
        "https://example.com:8443/path#frag", "https://user@example.com/", "https://1.2.3.4/x",
        "https://[::1]/x"}) {
    EXPECT_TRUE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, SchemeIsCaseInsensitive) {
  EXPECT_TRUE(is_safe_redirect_target("HTTPS://EXAMPLE.COM/"));
  EXPECT_TRUE(is_safe_redirect_target("Http://example.com/"));
  EXPECT_TRUE(is_safe_redirect_target("hTtPs://example.com/"));
}

TEST(ClickRedirectTarget, OtherSchemesRejected) {
  for (const char* url :
       {"javascript:alert(1)", "JavaScript://example.com/%0aalert(1)", "data:text/html,<b>x</b>",
        "ftp://example.com/", "file:///etc/passwd", "mailto:a@example.com", "vbscript:msgbox",
        "httpx://example.com", "https:example.com", "http:/example.com", "https//example.com",
        " https://example.com", "\thttps://example.com"}) {
    EXPECT_FALSE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, RelativeAndHostlessRejected) {
  for (const char* url : {"//evil.example/", "/r/click/1", "example.com", "", "http://", "https://",
                          "http:///x", "https:///evil.example", "http://\\evil", "https://?q=1",
                          "https://#x", "https://@evil.example", "http:\\\\evil.example"}) {
    EXPECT_FALSE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, SpacesControlAndBackslashRejected) {
  for (const std::string& url :
       {std::string("https://exa mple.com/"), std::string("https://example.com/a b"),
        std::string("https://example.com/\t"), std::string("https://example.com/\r\nX-Evil: 1"),
        std::string("https://example.com/\n"), std::string("https://example.com/\x01"),
        std::string("https://example.com/\x7f"), std::string("https://example.com\\@evil.com"),
        std::string("https://example.com/a\\b"), std::string("https://example.com/\0x", 22),
        std::string("https://ex\xc3\xa4mple.com/")}) {
    EXPECT_FALSE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, LengthLimit2048) {
  const std::string prefix = "https://example.com/";
  const std::string at_limit = prefix + std::string(2048 - prefix.size(), 'a');
  ASSERT_EQ(at_limit.size(), 2048u);
  EXPECT_TRUE(is_safe_redirect_target(at_limit));
  EXPECT_FALSE(is_safe_redirect_target(at_limit + "a"));
  EXPECT_FALSE(is_safe_redirect_target(prefix + std::string(100000, 'a')));
}

// The header promises "absolute http(s) URLs with a host": an authority with a port but no host
// has no host.
TEST(ClickRedirectTarget, EmptyHostWithPortRejected) {
  EXPECT_FALSE(is_safe_redirect_target("http://:80/"));
  EXPECT_FALSE(is_safe_redirect_target("https://:443/path"));
}

TEST(ClickQueryParam, NoQueryAddsQuestionMark) {
  EXPECT_EQ(with_query_param("https://shop.example/p", "subid", "abc"),
            "https://shop.example/p?subid=abc");
  EXPECT_EQ(with_query_param("https://shop.example", "clickref", "0f1e"),
            "https://shop.example?clickref=0f1e");
}

TEST(ClickQueryParam, ExistingQueryAddsAmpersand) {
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1", "subid", "abc"),
            "https://shop.example/p?a=1&subid=abc");
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1&b=2", "subid", "abc"),
            "https://shop.example/p?a=1&b=2&subid=abc");
}

TEST(ClickQueryParam, UrlEndingInQuestionMarkOrAmpersand) {
  EXPECT_EQ(with_query_param("https://shop.example/p?", "subid", "abc"),
            "https://shop.example/p?subid=abc");
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1&", "subid", "abc"),
            "https://shop.example/p?a=1&subid=abc");
}

TEST(ClickQueryParam, FragmentKeptAfterTheParameter) {
  EXPECT_EQ(with_query_param("https://shop.example/p#top", "subid", "abc"),
            "https://shop.example/p?subid=abc#top");
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1#top", "subid", "abc"),
            "https://shop.example/p?a=1&subid=abc#top");
  EXPECT_EQ(with_query_param("https://shop.example/p?#top", "subid", "abc"),
            "https://shop.example/p?subid=abc#top");
  // A '?' inside the fragment is part of the fragment, not a query.
  EXPECT_EQ(with_query_param("https://shop.example/p#x?y=1", "subid", "abc"),
            "https://shop.example/p?subid=abc#x?y=1");
  EXPECT_EQ(with_query_param("https://shop.example/p#", "subid", "abc"),
            "https://shop.example/p?subid=abc#");
}

TEST(ClickSubIdParameter, PerNetwork) {
  EXPECT_EQ(sub_id_parameter("admitad"), "subid");
  EXPECT_EQ(sub_id_parameter("awin"), "clickref");
  EXPECT_EQ(sub_id_parameter("manual"), "");
  EXPECT_EQ(sub_id_parameter(""), "");
  EXPECT_EQ(sub_id_parameter("demo"), "");
  EXPECT_EQ(sub_id_parameter("Admitad"), "");
}

}  // namespace
