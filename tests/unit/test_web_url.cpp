#include "lib/admin/web_url.h"

#include <gtest/gtest.h>

namespace {

using placard::admin::is_web_url;

TEST(WebUrl, AcceptsHttpAndHttpsWithAHost) {
  for (const char* u :
       {"https://m.example", "http://m.example/", "HTTPS://M.Example:8443/a?b=c&d=%20#f",
        "http://127.0.0.1:8080/", "https://[::1]:443/p",
        "https://ad.admitad.example/g/1302/?ulp=https%3A%2F%2Fm.example%2F"}) {
    EXPECT_TRUE(is_web_url(u)) << u;
  }
}

TEST(WebUrl, RefusesOtherSchemesNoHostAndUnsafeCharacters) {
  for (const char* u : {"",
                        "ftp://m.example/",
                        "javascript:alert(1)",
                        "//m.example/",
                        "m.example",
                        "https://",
                        "https:///path",
                        "http://:80/",
                        "https://m.example:0/",
                        "https://m.example:65536/",
                        "https://m.example:x/",
                        "https://m ex.com/",
                        "https://m.example/a b",
                        "https://m.example/\r\n",
                        "https://m.example/\"",
                        "https://m.example/<x>",
                        "https://m.example/\\",
                        "https://-m.example/",
                        "https://m_example.com/",
                        "https://[::1/",
                        "https://m.example/\xc3\xa4",
                        "data:text/html,x",
                        "https://user@m.example/x",
                        "https://shop.example@evil.example/",
                        "https://shop.example:443@evil.example/",
                        "https://a:b@[::1]/"}) {
    EXPECT_FALSE(is_web_url(u)) << u;
  }
  EXPECT_TRUE(is_web_url("https://m.example/" + std::string(2048 - 18, 'a')));
  EXPECT_FALSE(is_web_url("https://m.example/" + std::string(2048 - 17, 'a')));
}

}  // namespace
