#include "lib/api/client_hasher.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

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

TEST(ClientHasher, RequestsHashTheirClientBehindTrustedProxies) {
  const auto trusted = TrustedProxies::parse("127.0.0.1");
  placard::api::ClientHasher h(trusted, "secret");
  constexpr std::int64_t kNow = 1'800'000'000;
  EXPECT_EQ(h.hash(from("127.0.0.1", "203.0.113.5"), kNow), h.hash_address("203.0.113.5", kNow));
  EXPECT_EQ(h.hash(from("198.51.100.1", "203.0.113.5"), kNow),
            h.hash_address("198.51.100.1", kNow));
}

}  // namespace
