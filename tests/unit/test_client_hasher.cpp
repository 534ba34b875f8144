#include "lib/api/client_hasher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "lib/crypto/hmac.h"
#include "lib/http/client_address.h"
#include "tests/unit/request_builders.h"

namespace {

using placard::http::TrustedProxies;
using placard::test::from;

TEST(ClientHasher, OneIpv6Slash64IsOneClient) {
  const placard::http::TrustedProxies none;
  placard::api::ClientHasher h(none, "day secret");
  const std::int64_t now = 1'800'000'000;
  EXPECT_EQ(h.hash_address("2001:db8:1:2::1", now), h.hash_address("2001:db8:1:2:ffff::5", now));
  EXPECT_NE(h.hash_address("2001:db8:1:2::1", now), h.hash_address("2001:db8:1:3::1", now));
  EXPECT_NE(h.hash_address("192.0.2.1", now), h.hash_address("192.0.2.2", now));
}

TEST(ClientHasher, SameAddressSameDaySameHashNewDayNewHash) {
  const TrustedProxies none;
  placard::api::ClientHasher a(none, "secret");
  placard::api::ClientHasher b(none, "secret");  // another thread or host: the same key
  placard::api::ClientHasher other(none, "another secret");
  constexpr std::int64_t kMidnight = 1'800'057'600;  // 2027-01-15T00:00:00Z
  static_assert(kMidnight % 86400 == 0);
  const auto h = a.hash_address("192.0.2.1", kMidnight - 3600);
  EXPECT_EQ(h, a.hash_address("192.0.2.1", kMidnight - 1));
  EXPECT_EQ(h, b.hash_address("192.0.2.1", kMidnight - 7200));
  EXPECT_NE(h, a.hash_address("192.0.2.2", kMidnight - 1));
  EXPECT_NE(h, other.hash_address("192.0.2.1", kMidnight - 1));
  // The key changes at midnight UTC, not before; so does every hash.
  EXPECT_EQ(a.day_key(kMidnight - 86400), a.day_key(kMidnight - 1));
  EXPECT_NE(a.day_key(kMidnight - 1), a.day_key(kMidnight));
  EXPECT_NE(h, a.hash_address("192.0.2.1", kMidnight));
  EXPECT_EQ(a.hash_address("192.0.2.1", kMidnight), b.hash_address("192.0.2.1", kMidnight + 5));
  // Back to the earlier day (a thread judged a late request): the earlier key again.
  EXPECT_EQ(h, a.hash_address("192.0.2.1", kMidnight - 10));
  // The hash holds nothing of the address as text.
  const std::string raw(reinterpret_cast<const char*>(h.data()), h.size());
  EXPECT_EQ(raw.find("192.0.2.1"), std::string::npos);
}

// Issue 24: the day's number leads (the client index takes a day's events at one end), then the
// keyed hash of the address under the day's key, cut to 14 bytes.
TEST(ClientHasher, TheDayLeadsThenTheDaysKeyedHash) {
  const TrustedProxies none;
  placard::api::ClientHasher h(none, "secret");
  constexpr std::int64_t kNow = 1'800'000'000;  // 2027-01-15, day 20833 since 1970
  const auto out = h.hash_address("192.0.2.1", kNow);
  EXPECT_EQ(out[0], 20833 >> 8);
  EXPECT_EQ(out[1], 20833 & 0xff);
  const auto key = h.day_key(kNow);
  const auto mac = placard::crypto::hmac_sha256(
      std::string_view(reinterpret_cast<const char*>(key.data()), key.size()),
      placard::http::client_key_text("192.0.2.1"));
  EXPECT_TRUE(std::equal(out.begin() + 2, out.end(), mac.begin()));
  const auto next_day = h.hash_address("192.0.2.1", kNow + 86400);
  EXPECT_EQ(next_day[0], 20834 >> 8);
  EXPECT_EQ(next_day[1], 20834 & 0xff);
}

TEST(ClientHasher, RequestsHashTheirClientBehindTrustedProxies) {
  const auto trusted = TrustedProxies::parse("127.0.0.1");
  placard::api::ClientHasher h(trusted, "secret");
  constexpr std::int64_t kNow = 1'800'000'000;
  EXPECT_EQ(h.hash(from("127.0.0.1", "203.0.113.5"), kNow), h.hash_address("203.0.113.5", kNow));
  EXPECT_EQ(h.hash(from("198.51.100.1", "203.0.113.5"), kNow),
            h.hash_address("198.51.100.1", kNow));
}

}  // namespace
