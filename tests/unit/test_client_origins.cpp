// Which request Origins an allowedClientOrigins list grants: exact entries, and the one
// wildcard `moz-extension://*` for every Firefox extension installation.
#include <gtest/gtest.h>

#include "lib/catalog/client_origins.h"

namespace {

using placard::catalog::client_origin_allowed;

TEST(ClientOriginsAllowed, ExactEntriesMatchExactly) {
  const std::vector<std::string> list{"chrome-extension://abcdefghijklmnopabcdefghijklmnop"};
  EXPECT_TRUE(client_origin_allowed(list, "chrome-extension://abcdefghijklmnopabcdefghijklmnop"));
  EXPECT_FALSE(client_origin_allowed(list, "chrome-extension://abcdefghijklmnopabcdefghijklmno"));
  EXPECT_FALSE(client_origin_allowed(list, "CHROME-EXTENSION://abcdefghijklmnopabcdefghijklmnop"));
  EXPECT_FALSE(client_origin_allowed({}, "chrome-extension://x"));
}

TEST(ClientOriginsAllowed, FirefoxWildcardMatchesEveryMozExtensionOrigin) {
  const std::vector<std::string> list{"moz-extension://*"};
  EXPECT_TRUE(client_origin_allowed(list, "moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab"));
  EXPECT_TRUE(client_origin_allowed(list, "moz-extension://f00"));
}

TEST(ClientOriginsAllowed, FirefoxWildcardMatchesNothingElse) {
  const std::vector<std::string> list{"moz-extension://*"};
  for (const char* other :
       {"chrome-extension://abcdefghijklmnopabcdefghijklmnop", "https://example.com",
        "moz-extension://", "moz-extension://*", "moz-extension://abc/", "moz-extension://abc:1",
        "moz-extension://a.b", "moz-extension://ABC", "moz-extension://-abc",
        "moz-extension://abc-", "moz-extension://a b", "xmoz-extension://abc",
        "moz-extensions://abc", "null"}) {
    EXPECT_FALSE(client_origin_allowed(list, other)) << other;
  }
  EXPECT_FALSE(client_origin_allowed(list, "moz-extension://" + std::string(64, 'a')));
}

TEST(ClientOriginsAllowed, AStarIsLiteralInAnyOtherEntry) {
  // A stored entry such as "https://*" (never accepted by the admin API, but a database can hold
  // anything) grants only an Origin that is literally the same string.
  const std::vector<std::string> list{"https://*", "chrome-extension://*"};
  EXPECT_FALSE(client_origin_allowed(list, "https://example.com"));
  EXPECT_FALSE(client_origin_allowed(list, "chrome-extension://abcdefghijklmnopabcdefghijklmnop"));
}

}  // namespace
